import type { AgentInterface } from '@a2a-js/sdk';
import type { Binding } from '../wire/bindings/binding.js';
import { A2AError } from '../../errors.js';
import { VERSION_NOT_SUPPORTED } from '../../port/codes.js';
import type { InterfaceOrder, ProtocolBinding } from '../wire/bindings/options.js';
import { BINDINGS, bindingNamed } from '../wire/bindings/registry.js';
import { cardError } from './card/schema.js';

/** What the choice of an interface depends on besides the card. */
export interface InterfaceChoice {
  /** The binding the `bindings` option forces for this agent, if any. */
  forced?: ProtocolBinding | undefined;
  /** Whether a binding's interfaces may be chosen: `true`, or why not (gRPC in a browser build, a package not installed). */
  available(binding: Binding): true | string;
  /** What kept a binding out, as the cause of the error when nothing else is left. */
  cause?: unknown;
  /** The card's order (and the caller's preferred bindings, the oldest version allowed) instead of a4h's. */
  order?: InterfaceOrder | undefined;
}

/** `major.minor` of a protocol version as one comparable number; a card with no `protocolVersion` is a v0.3 card. */
export const rank = (version: string): number => {
  const [major = 0, minor = 0] = (version || '0.3').split('.').map((part) => Number.parseInt(part, 10) || 0);
  return major * 1_000 + minor;
};

/**
 * A protocol version as the oldest-version rule (`minVersion`) weighs it: every version before 1.0 is one
 * generation, spoken on the v0.3 wire (a card that says "0.1.0" or "0.2.0" is spoken to as 0.3, as
 * without the rule), so it weighs as 0.3; from 1.0 on, `major.minor`.
 */
export const generationRank = (version: string): number => {
  const ranked = rank(version);
  return ranked < rank('1.0') ? rank('0.3') : ranked;
};

/** An interface of the card that may be chosen, with its binding and its place on the card. */
interface Candidate {
  i: AgentInterface;
  binding: Binding;
  index: number;
}

/**
 * Picks the interface to talk to: the newest protocol version first, then the client's preference
 * among bindings (JSON-RPC, HTTP+JSON, gRPC), then the card's order (a card lists its preferred
 * interface first). A binding the option forces narrows the choice to its interfaces. An interface
 * is a candidate only when its binding is available and, for a binding not over HTTP, the client
 * can read its address; a card left with no candidate is a `card` error naming what it offers (and
 * why the bindings read apart were not chosen).
 */
export function chooseInterface(interfaces: readonly AgentInterface[], cardUrl: string, choice: InterfaceChoice): AgentInterface {
  const candidates = interfaces.flatMap((i, index): Candidate[] => {
    const binding = bindingNamed(i.protocolBinding);
    return binding !== undefined && usable(i, binding, choice) ? [{ i, binding, index }] : [];
  });
  if (choice.order !== undefined) return inCardOrder(candidates, choice.order, cardUrl) ?? fail(interfaces, cardUrl, choice);
  candidates.sort(
    (a, b) => rank(b.i.protocolVersion) - rank(a.i.protocolVersion) || a.binding.preference - b.binding.preference || a.index - b.index,
  );
  const best = candidates[0];
  return best === undefined ? fail(interfaces, cardUrl, choice) : best.i;
}

function fail(interfaces: readonly AgentInterface[], cardUrl: string, choice: InterfaceChoice): never {
  throw cardError(cardUrl, noInterface(interfaces, choice), choice.cause);
}

/**
 * The caller's first preferred binding the card offers, else the card's first usable interface; none
 * of an older version than `minVersion` (a card left with only such is a VersionNotSupportedError).
 * Versions before 1.0 are one generation there: a `minVersion` of 0.3 admits a card that says 0.1 or 0.2.
 */
function inCardOrder(candidates: Candidate[], order: InterfaceOrder, cardUrl: string): AgentInterface | undefined {
  const oldest = order.minVersion === undefined ? 0 : generationRank(order.minVersion);
  const recent = candidates.filter((c) => generationRank(c.i.protocolVersion) >= oldest);
  if (recent.length === 0 && candidates.length > 0) throw versionNotSupported(cardUrl, candidates, order.minVersion!);
  const preference = (c: Candidate): number => {
    const at = order.prefer?.indexOf(c.binding.name) ?? -1;
    return at < 0 ? Number.MAX_SAFE_INTEGER : at;
  };
  return recent.sort((a, b) => preference(a) - preference(b) || a.index - b.index)[0]?.i;
}

/** The card offers only protocol versions older than the oldest allowed: never a silent downgrade. */
export function versionNotSupported(cardUrl: string, candidates: readonly { i: AgentInterface }[], minVersion: string): A2AError {
  const offered = [...new Set(candidates.map((c) => c.i.protocolVersion || '0.3'))].join(', ');
  return new A2AError({
    kind: 'unsupported',
    operation: 'card',
    code: VERSION_NOT_SUPPORTED,
    agent: cardUrl,
    message: `the agent speaks A2A ${offered}, older than ${minVersion}, the oldest version allowed`,
  });
}

function usable(i: AgentInterface, binding: Binding, choice: InterfaceChoice): boolean {
  if (choice.forced !== undefined && binding.name !== choice.forced) return false;
  return choice.available(binding) === true && (binding.http !== undefined || binding.address(i.url) !== undefined);
}

/** Why no interface of the card can be used: what it offers, and what kept a binding read apart (gRPC) out. */
function noInterface(interfaces: readonly AgentInterface[], choice: InterfaceChoice): string {
  const offered = [...new Set(interfaces.map((i) => i.protocolBinding))].join(', ') || 'none';
  const why = leftOut(interfaces, choice);
  if (choice.forced !== undefined) {
    return `the agent card offers no ${choice.forced} interface, which the bindings option asks for; it offers: ${offered}${why}`;
  }
  const names = BINDINGS.map((binding) => binding.name);
  const spoken = `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
  return `the agent card offers no interface this client speaks (${spoken}); it offers: ${offered}${why}`;
}

/** `; <why>` for the first binding not over HTTP whose interfaces the card offers: it is not available, or its address cannot be read. */
function leftOut(interfaces: readonly AgentInterface[], choice: InterfaceChoice): string {
  for (const binding of BINDINGS) {
    if (binding.http !== undefined || (choice.forced !== undefined && choice.forced !== binding.name)) continue;
    const own = interfaces.find((i) => bindingNamed(i.protocolBinding) === binding);
    if (own === undefined) continue;
    const available = choice.available(binding);
    return `; ${available === true ? binding.unreadable(own.url) : available}`;
  }
  return '';
}
