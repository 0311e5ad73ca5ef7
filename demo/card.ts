/**
 * The demo agent's card, in the A2A v1.0 shape (@a2a-js/sdk 1.3) and the v0.3 shape (`sdk03`).
 * Both describe the same agent; only the way they list endpoints differs.
 */
import type { AgentCard as CardV1 } from '@a2a-js/sdk';
import type { AgentCard as CardV03 } from 'sdk03';

/** Endpoint paths below the agent's base URL. */
export const PATHS = {
  card: '/.well-known/agent-card.json',
  jsonRpc: '/a2a/jsonrpc',
  rest: '/a2a/rest',
} as const;

const NAME = 'a4h demo agent';
const DESCRIPTION =
  'A small, friendly A2A agent that streams every answer word by word and remembers each conversation ' +
  '(by contextId) in a file, so a client needs no storage of its own.';

const SKILLS = [
  {
    id: 'remember',
    name: 'Remembering chat',
    description: 'Counts the turns of a conversation and quotes what you said earlier. Send "forget" to wipe it.',
    tags: ['demo', 'memory', 'streaming'],
    examples: ['hello', 'what did I say before?', 'forget'],
  },
  {
    id: 'slow',
    name: 'Slow answer',
    description: 'Start a message with "slow" to get an answer streamed very slowly — handy for trying cancel.',
    tags: ['demo', 'cancel'],
    examples: ['slow please'],
  },
];

/** The v1.0 card: JSON-RPC first, HTTP+JSON second. `baseUrl` ends with a slash. */
export function cardV1(baseUrl: string): CardV1 {
  const url = (path: string): string => new URL(path.slice(1), baseUrl).href;
  return {
    name: NAME,
    description: DESCRIPTION,
    supportedInterfaces: [
      { url: url(PATHS.jsonRpc), protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url: url(PATHS.rest), protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '1.0' },
    ],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: SKILLS.map((skill) => ({
      ...skill,
      inputModes: ['text/plain'],
      outputModes: ['text/plain'],
      securityRequirements: [],
    })),
    signatures: [],
  };
}

/** The v0.3 card: one JSON-RPC endpoint in `url`. `baseUrl` ends with a slash. */
export function cardV03(baseUrl: string): CardV03 {
  return {
    name: NAME,
    description: DESCRIPTION,
    url: new URL(PATHS.jsonRpc.slice(1), baseUrl).href,
    preferredTransport: 'JSONRPC',
    protocolVersion: '0.3.0',
    version: '0.3.0',
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: SKILLS,
  };
}
