import type { AgentInterface } from '@a2a-js/sdk';
import { BINDING_PREFERENCE, type ProtocolBinding } from '../bindings/option.js';
import { cardError } from '../card/schema.js';
import { parseGrpcAddress } from '../bindings/grpc/address.js';

/** What the choice of an interface depends on besides the card. */
export interface InterfaceChoice {
  /** The binding the `bindings` option forces for this agent, if any. */
  forced?: ProtocolBinding | undefined;
  /** Whether gRPC interfaces may be chosen: `true`, or why not (a browser build, a package not installed). */
  grpc: true | string;
  /** What kept gRPC out, as the cause of the error when nothing else is left. */
  cause?: unknown;
}

/** `major.minor` of a protocol version as one comparable number; a card with no `protocolVersion` is a v0.3 card. */
const rank = (version: string): number => {
  const [major = 0, minor = 0] = (version || '0.3').split('.').map((part) => Number.parseInt(part, 10) || 0);
  return major * 1_000 + minor;
};

const bindingOf = (i: AgentInterface): string => i.protocolBinding.toUpperCase();

/**
 * Picks the interface to talk to: the newest protocol version first, then the client's preference
 * among bindings (JSON-RPC, HTTP+JSON, gRPC), then the card's order (a card lists its preferred
 * interface first). A binding the option forces narrows the choice to its interfaces. A gRPC
 * interface is a candidate only with gRPC support and an address the client can read; a card left
 * with no candidate is a `card` error naming what it offers (and why gRPC was not chosen).
 */
export function chooseInterface(interfaces: readonly AgentInterface[], cardUrl: string, choice: InterfaceChoice): AgentInterface {
  const preference = (i: AgentInterface): number => (BINDING_PREFERENCE as readonly string[]).indexOf(bindingOf(i));
  const candidates = interfaces
    .map((i, index) => ({ i, index }))
    .filter(({ i }) => preference(i) !== -1 && (choice.forced === undefined || bindingOf(i) === choice.forced))
    .filter(({ i }) => bindingOf(i) !== 'GRPC' || (choice.grpc === true && parseGrpcAddress(i.url) !== undefined));
  candidates.sort(
    (a, b) => rank(b.i.protocolVersion) - rank(a.i.protocolVersion) || preference(a.i) - preference(b.i) || a.index - b.index,
  );
  const best = candidates[0];
  if (best !== undefined) return best.i;
  throw cardError(cardUrl, noInterface(interfaces, choice), choice.cause);
}

/** Why no interface of the card can be used: what it offers, and what kept each gRPC one out. */
function noInterface(interfaces: readonly AgentInterface[], choice: InterfaceChoice): string {
  const offered = [...new Set(interfaces.map((i) => i.protocolBinding))].join(', ') || 'none';
  const grpc = interfaces.filter((i) => bindingOf(i) === 'GRPC' && (choice.forced === undefined || choice.forced === 'GRPC'));
  let why = '';
  if (grpc.length > 0 && choice.grpc !== true) why = `; ${choice.grpc}`;
  else if (grpc.length > 0)
    why = `; its gRPC address ${JSON.stringify(grpc[0]!.url)} is not host:port, grpc://host:port or https://host:port`;
  if (choice.forced !== undefined) {
    return `the agent card offers no ${choice.forced} interface, which the bindings option asks for; it offers: ${offered}${why}`;
  }
  return `the agent card offers no interface this client speaks (JSONRPC, HTTP+JSON or GRPC); it offers: ${offered}${why}`;
}
