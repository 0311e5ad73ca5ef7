import type { A2UIOption } from '../port/a2ui-option.js';
import type { ExtensionsOption } from '../port/extensions.js';
import type { BindingsOption } from './wire/bindings/options.js';
import type { CredentialsOption } from './http/credentials/options.js';
import type { TrustOption } from './agent/trust/options.js';

/**
 * How agents are reached: the options `createA2A` and `createSdkPorts` share, described once. Each
 * is checked when the client (or the ports) is made: a bad entry is a `config` error there.
 */
export interface AgentReachOptions {
  /** The fetch for every request; default the global fetch (the Node entry passes an undici one). */
  fetch?: typeof fetch;
  /**
   * Answers read whole (SendMessage, GetTask, CancelTask) larger than this fail the call. Default
   * 64 MiB; a positive whole number.
   */
  maxResponseBytes?: number;
  /**
   * Credentials per agent, keyed by origin (`https://agent.example`) or URL prefix: a bearer token,
   * an API key (placed where the card's apiKey scheme says), static headers, or a function for
   * tokens that expire. They go to the agent's own origin only, and never appear in an event, a log
   * line or an error.
   */
  credentials?: CredentialsOption;
  /**
   * Signed agent cards (A2A §8.4): the keys the client trusts (JWKS inline, or at JWKS URLs that are
   * also the only ones a signature's `jku` may name) and the agents that must have a card signed by
   * one of them (`requireSignedCard`, by origin or URL prefix): for those an unsigned or badly signed
   * card is a `card` error and nothing is sent. Other cards with a bad signature are used, with one
   * warning each. The verdict is in `card(agent).signature`. Without keys, signatures are not
   * checked (a signed card's verdict is `unchecked`).
   */
  trust?: TrustOption;
  /**
   * Extensions per agent, keyed by origin or URL prefix (the longest prefix of the agent's card URL
   * wins, as for credentials): the extension URIs every call to the agent activates, sent as
   * `A2A-Extensions` (v0.3 agents: `X-A2A-Extensions`, and `A2A-Extensions` too). A turn's own
   * `extensions` are added.
   */
  extensions?: ExtensionsOption;
  /**
   * The protocol binding per agent, keyed like `credentials` (an origin or a URL prefix of the card
   * URL, the longest wins): `'JSONRPC'`, `'HTTP+JSON'` or `'GRPC'` (Node). Such an agent is called on
   * an interface of that binding only; a card without one is a `card` error. Without an entry the
   * choice is the newest protocol version, then JSON-RPC, HTTP+JSON, gRPC, then the card's order.
   */
  bindings?: BindingsOption;
  /**
   * A2UI (a2ui.org): the catalogs the app renders. A turn to an agent whose card offers the A2UI
   * extension activates it and sends `metadata.a2uiClientCapabilities` on its message; other agents
   * see nothing of it. The agent's surfaces come as `surface` events either way. None by default.
   */
  a2ui?: A2UIOption;
}

const REACH_KEYS = [
  'fetch',
  'maxResponseBytes',
  'credentials',
  'trust',
  'extensions',
  'bindings',
  'a2ui',
] as const satisfies readonly (keyof AgentReachOptions)[];

/** The agent-reach options among `options` (those given). */
export function agentReach(options: AgentReachOptions): AgentReachOptions {
  const reach: Record<string, unknown> = {};
  for (const key of REACH_KEYS) if (options[key] !== undefined) reach[key] = options[key];
  return reach as AgentReachOptions;
}
