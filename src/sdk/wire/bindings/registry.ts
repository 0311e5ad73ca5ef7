import { ClientFactory, DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import { withBothExtensionNames } from '../../http/extensions/headers.js';
import type { Binding } from './binding.js';
import { grpc } from './grpc.js';
import { httpJson } from './http-json.js';
import { jsonRpc } from './json-rpc.js';
import type { ProtocolBinding } from './options.js';

/**
 * Every binding the client speaks, by the name cards give it: adding one is its module and its line
 * here (the type keeps this list and {@link ProtocolBinding} the same).
 */
const REGISTRY: { readonly [name in ProtocolBinding]: Binding<name> } = {
  JSONRPC: jsonRpc,
  'HTTP+JSON': httpJson,
  GRPC: grpc,
};

/** The bindings in the client's order of preference. */
export const BINDINGS: readonly Binding[] = Object.values(REGISTRY).sort((a, b) => a.preference - b.preference);

/** The binding a card names (`protocolBinding`, v0.3 `transport`, in any case), when the client speaks it. */
export function bindingNamed(name: string): Binding | undefined {
  const upper = name.toUpperCase();
  return Object.hasOwn(REGISTRY, upper) ? REGISTRY[upper as ProtocolBinding] : undefined;
}

/**
 * The SDK's factory over the bindings over HTTP, every request through `fetch`, with the v0.3
 * compatibility switched on for both the card resolver and the transports (half of it gives
 * confusing errors), a v0.3 call's extensions under both header names ({@link withBothExtensionNames}).
 */
export function sdkFactory(fetch: typeof globalThis.fetch): ClientFactory {
  const fetchImpl = withBothExtensionNames(fetch);
  const legacyCompat = { enabled: true };
  const overHttp = BINDINGS.flatMap((binding) => (binding.http ? [{ name: binding.name, transport: binding.http }] : []));
  return new ClientFactory({
    transports: overHttp.map(({ transport }) => transport({ fetchImpl, legacyCompat })),
    preferredTransports: overHttp.map(({ name }) => name),
    cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat }),
  });
}
