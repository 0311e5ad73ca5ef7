/**
 * The demo agent's card, in the A2A v1.0 shape (@a2a-js/sdk 1.3) and the v0.3 shape (`sdk03`).
 * Both describe the same agent; only the way they list endpoints differs. Every card says
 * `capabilities.pushNotifications`: the SDK's request handler then keeps the push configs a client
 * gives (in memory) and its own `DefaultPushNotificationSender` POSTs each event of the task to them.
 */
import type { AgentCard as CardV1 } from '@a2a-js/sdk';
import type { AgentCard as CardV03 } from 'sdk03';
import { a2uiExtension } from '../fixtures/a2ui-mount.js';
import { grpcInterface, v03Card, v1Card, v1Interfaces } from '../fixtures/cards.js';
import type { CardInfo } from '../fixtures/cards.js';
import type { Host } from '../fixtures/http-host.js';

export const NAME = 'a4h demo agent';
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
  {
    id: 'ask',
    name: 'A question back',
    description:
      'Start a message with "ask" and the agent asks you a question (the task waits for your answer); answer in the same thread and it finishes that task, quoting you.',
    tags: ['demo', 'input-required'],
    examples: ['ask what is your favourite city'],
  },
  {
    id: 'files',
    name: 'Files',
    description: 'Start a message with "attach" for a small chart (a PNG); with "echo" and a file, the file comes back unchanged.',
    tags: ['demo', 'files'],
    examples: ['attach a chart', 'echo'],
  },
  {
    id: 'form',
    name: 'A form',
    description:
      'Start a message with "form" for a small form (an A2UI v1.0 surface: a choice and a button); press Submit and the agent answers on the form.',
    tags: ['demo', 'a2ui'],
    examples: ['form please'],
  },
];

/** What `echo` takes back: text, pictures, documents and JSON. */
export const INPUT_MODES = [
  'text/plain',
  'text/markdown',
  'text/csv',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'application/json',
];

const info = (version: string): CardInfo => ({
  name: NAME,
  description: DESCRIPTION,
  version,
  streaming: true,
  skills: SKILLS,
  inputModes: INPUT_MODES,
});

/** A v1.0 card that offers push notifications. */
function pushingV1(card: CardV1): CardV1 {
  return { ...card, capabilities: { ...card.capabilities!, pushNotifications: true } };
}

/** A v0.3 card that offers push notifications. */
function pushingV03(card: CardV03): CardV03 {
  return { ...card, capabilities: { ...card.capabilities, pushNotifications: true } };
}

/** The v1.0 card of the agent at the host's root: JSON-RPC first, HTTP+JSON second; it draws A2UI v1.0. */
export function cardV1(host: Pick<Host, 'url'>): CardV1 {
  const card = pushingV1(v1Card(info('1.0.0'), v1Interfaces(host, '/', ['JSONRPC', 'HTTP+JSON'])));
  return { ...card, capabilities: { ...card.capabilities!, extensions: [a2uiExtension()] } };
}

/** The v0.3 card of the agent at the host's root: one JSON-RPC endpoint in `url`; it draws A2UI v1.0. */
export function cardV03(host: Pick<Host, 'url'>): CardV03 {
  const card = pushingV03(v03Card(info('0.3.0'), host, '/'));
  return { ...card, capabilities: { ...card.capabilities, extensions: [{ ...a2uiExtension() }] } };
}

/** The v1.0 card of the agent served over gRPC only, at `target` (`host:port`). */
export function cardV1Grpc(target: string): CardV1 {
  return pushingV1(v1Card(info('1.0.0'), [grpcInterface(target)]));
}

/** The v0.3 card of the agent served over gRPC only, at `target` (`host:port`). */
export function cardV03Grpc(host: Pick<Host, 'url'>, target: string): CardV03 {
  return { ...cardV03(host), url: target, preferredTransport: 'GRPC' };
}
