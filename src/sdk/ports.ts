import { A2AError } from '../errors.js';
import { checkExtensionUris } from '../port/extensions.js';
import { checkA2UIOption } from '../port/a2ui-option.js';
import { AgentExtensions } from './http/extensions/options.js';
import { ResponseWatch } from './wire/fetch/response-watch.js';
import { CardCache } from './agent/card/cache.js';
import type { CardValidators } from './agent/card/fetch.js';
import { cardUrlOf } from '../port/card-url.js';
import { Credentials } from './http/credentials/scope.js';
import { silentLogger, type Logger } from '../logger.js';
import type { PortFactory } from '../port/port.js';
import { Bindings } from './wire/bindings/forced.js';
import { OpenBindings } from './wire/bindings/open.js';
import { sdkFactory } from './wire/bindings/registry.js';
import type { AgentReachOptions } from './reach-options.js';
import type { InterfaceOrder } from './wire/bindings/options.js';
import type { GrpcSupport } from './wire/bindings/grpc/support.js';
import type { ResolvedAgent } from './agent/resolve.js';
import type { AgentLoader } from './agent/load.js';
import { SdkPort, type PortShared } from './sdk-port.js';
import { CardTrust } from './agent/trust/trust.js';

/** How the SDK-backed ports reach agents: the {@link AgentReachOptions} `createA2A` passes, and these. */
export interface SdkPortOptions extends AgentReachOptions {
  /** `acceptedOutputModes` of every send: what the caller can render. Default `text/plain`, `text/markdown`. */
  outputModes?: readonly string[];
  /** Cards larger than this are refused. Default 1 MiB; a positive whole number, else a `config` error. */
  cardMaxBytes?: number;
  /**
   * Who reads streams: `a4h` (default), the client's own tolerant reader for JSON-RPC, and a v1.0
   * gRPC stream's messages handed straight from the call to the turn; or `sdk`, the official SDK's
   * transport as it delivers them. With `a4h`, a v1.0 JSON-RPC `ListTasks` is read by the client's
   * reader too; the other unary calls, HTTP+JSON and v0.3 gRPC always go through the SDK.
   */
  reader?: 'a4h' | 'sdk';
  /** How long a card is cached when the server sends no `max-age`. Default 5 minutes. */
  cardTtlMs?: number;
  /** The longest a card is cached, whatever the server says. Default 1 hour. */
  cardMaxTtlMs?: number;
  /** The clock of the card and JWKS caches' expiry and of keys' `exp`, in milliseconds. Default `Date.now`; tests pass a fake one. */
  clock?: () => number;
  /**
   * The card deadline the turns apply (`policy.cardTimeoutMs`, which `createA2A` passes), counted from
   * the start of a card's load: the wait for a card's keys at trusted JWKS URLs ends inside it. Default 10 s.
   */
  cardTimeoutMs?: number;
  /** Hears what the ports decide once (credentials not sent to another origin, an extended card refused). Silent by default. */
  logger?: Logger;
  /**
   * gRPC support: `grpcSupport()` from `a4h-a2a/node` (the Node `createA2A` passes it). Without it,
   * as in a browser, gRPC interfaces are never chosen, and a card that offers only gRPC is a `card`
   * error saying gRPC is Node-only.
   */
  grpc?: GrpcSupport;
  /**
   * The card's order for the interface choice instead of a4h's (the newest version, then JSON-RPC,
   * HTTP+JSON, gRPC): the caller's preferred bindings first, and the oldest protocol version allowed.
   * The A2A CLI specification's choice; default a4h's.
   */
  interfaceOrder?: InterfaceOrder;
}

export type { BindingsOption, InterfaceOrder, ProtocolBinding } from './wire/bindings/options.js';
export { agentReach, type AgentReachOptions } from './reach-options.js';
export type { GrpcSupport } from './wire/bindings/grpc/support.js';

/** SDK-backed ports: a {@link PortFactory}, and `close()` for the gRPC channels they opened. */
export interface SdkPorts extends PortFactory {
  /** Closes the gRPC channels these ports opened (HTTP goes through the given fetch, which its owner closes). */
  close(): Promise<void>;
}

/**
 * Whether the caller gave a base URL (its card at the well-known path under it, as `cardUrlOf` makes
 * it), not a card URL of its own choosing (a path ending in `.json`).
 */
const typedAsBase = (agent: string): boolean => !agent.replace(/[?#].*$/s, '').endsWith('.json');

/** The largest answer read whole when `maxResponseBytes` is not given: 64 MiB. */
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 2 ** 20;

/** A bound in bytes from the options: a positive whole number (else a `config` error naming it), or `fallback` when not given. */
function byteBound(name: 'maxResponseBytes' | 'cardMaxBytes', value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new A2AError({
      kind: 'config',
      operation: 'options',
      message: `invalid option ${name}: it must be a positive whole number of bytes`,
    });
  }
  return value;
}

/**
 * Ports backed by the official `@a2a-js/sdk` client: v1.0 and v0.3 agents over JSON-RPC, HTTP+JSON
 * and (with `grpc`) gRPC; the newest protocol version first, then JSON-RPC, HTTP+JSON, gRPC, then the
 * card's order. Ports made by one factory share one card cache, so concurrent turns to an agent
 * share one card fetch (and one gRPC channel).
 */
export function createSdkPorts(options: SdkPortOptions = {}): SdkPorts {
  const baseFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const watch = new ResponseWatch(baseFetch, byteBound('maxResponseBytes', options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES));
  const loader: AgentLoader = {
    baseFetch,
    watch,
    factory: sdkFactory(watch.fetch),
    credentials: new Credentials(options.credentials, options.logger ?? silentLogger, baseFetch, options.clock),
    trust: new CardTrust(options.trust, baseFetch, options.logger ?? silentLogger, options.clock, {
      ...(options.cardTimeoutMs !== undefined ? { cardTimeoutMs: options.cardTimeoutMs } : {}),
    }),
    cardMaxBytes: byteBound('cardMaxBytes', options.cardMaxBytes, 2 ** 20),
    logger: options.logger ?? silentLogger,
    outputModes: [...(options.outputModes ?? ['text/plain', 'text/markdown'])],
    reader: options.reader ?? 'a4h',
    movedWarned: new Set(),
    forced: new Bindings(options.bindings),
    bindings: new OpenBindings({ grpc: options.grpc }),
    ...(options.interfaceOrder ? { order: options.interfaceOrder } : {}),
  };
  const ttl = { defaultTtlMs: options.cardTtlMs ?? 300_000, maxTtlMs: options.cardMaxTtlMs ?? 3_600_000, maxEntries: 256 };
  const shared: PortShared = {
    cache: new CardCache<ResolvedAgent, CardValidators>(ttl, options.clock),
    loader,
    a2ui: checkA2UIOption(options.a2ui),
  };
  const extensions = new AgentExtensions(options.extensions);

  const ports: PortFactory = (agent, turn) => {
    let cardUrl: string | A2AError;
    try {
      cardUrl = cardUrlOf(agent);
    } catch (error) {
      cardUrl = error as A2AError;
    }
    const own = turn?.extensions;
    if (own !== undefined && typeof cardUrl === 'string') {
      try {
        checkExtensionUris(own, "the turn's extensions", 'input', 'turn');
      } catch (error) {
        cardUrl = error as A2AError;
      }
    }
    const activated = typeof cardUrl === 'string' ? extensions.forTurn(cardUrl, own) : undefined;
    return new SdkPort(shared, cardUrl, turn?.headers, activated, turn?.caller, typeof cardUrl === 'string' && typedAsBase(agent));
  };
  return Object.assign(ports, { close: () => loader.bindings.close() });
}
