import type { ClientFactory, TransportFactory } from '@a2a-js/sdk/client';
import type { A2AError, A2AErrorKind, A2AOperation } from '../../../errors.js';
import type { CredentialPlan } from '../../http/credentials/plan.js';
import type { GrpcSupport } from './grpc/support.js';
import type { ProtocolBinding } from './options.js';

/** Where a code was seen: a JSON-RPC error's `code`, the HTTP status of the answer, or the status a gRPC call ended with. */
export type Wire = 'json-rpc' | 'http' | 'grpc';

/** What one code of one wire means to the ladder. */
export interface WireMeaning {
  readonly kind: Extract<A2AErrorKind, 'task-not-found' | 'unsupported' | 'auth' | 'http' | 'input' | 'network' | 'timeout' | 'conflict'>;
  /** Whether the ladder may try again after it. */
  readonly retryable: boolean;
}

/** One row of the wire table (`classify/wire-errors.ts`). */
export interface WireError extends WireMeaning {
  readonly wire: Wire;
  readonly code: number;
  /** The name the protocol gives the code, for people reading the table. */
  readonly name: string;
}

/** A failed call as the classifier's steps name it: the error's fields, and `<operation> to <agent>` for its message. */
export interface FailedCall {
  readonly base: { operation: A2AOperation; agent: string; cause: unknown };
  readonly what: string;
}

/** An interface's address as its binding reads it. */
export interface BindingAddress {
  /** How summaries, errors and logs show it: never with a user or password (gRPC: `grpc(s)://host:port`). */
  readonly shown: string;
  /** The http(s) URL whose origin the `credentials` option scopes the agent's calls by. */
  readonly scope: string;
  /** Where the SDK's client calls it (gRPC: `host:port`). */
  readonly target: string;
}

/** What a factory of ports hands its bindings (of `createSdkPorts`' options). */
export interface BindingSetup {
  /** gRPC support (the Node entry's). */
  readonly grpc?: GrpcSupport | undefined;
}

/**
 * Makes the SDK's factory of one agent's clients on the interface at `url`: `fetch` is the fetch of
 * the agent's calls (credentials on its origin), `plan` its credentials (for a binding that carries
 * them itself).
 */
export type ClientMaker = (url: string, fetch: typeof globalThis.fetch, plan: CredentialPlan | undefined) => ClientFactory;

/** A binding in one factory of ports: whether it can be chosen, what its clients are made with, what it keeps open. */
export interface OpenBinding {
  /** `true`, or why its interfaces cannot be chosen (a browser build, a package not installed). */
  readonly available: true | string;
  /**
   * What its clients are made with, loaded once an interface of it wins (gRPC's modules, once); it
   * rejects when that cannot be, and the interface is chosen again without this binding.
   */
  prepare(): Promise<ClientMaker>;
  /** Closes what its calls opened (gRPC's channels). */
  close(): Promise<void>;
}

/**
 * How a binding's streams are read, unless the `reader` option is `sdk` (then by the SDK's client):
 * `own-reader`, by the client's own reader; `direct`, a v1.0 stream's messages handed from the call
 * straight to the turn, not through the SDK's async iterators (gRPC: `grpc/direct.ts`; a v0.3 one's
 * through the SDK's client); `sdk`, by the SDK's client.
 */
export type StreamWay = 'own-reader' | 'direct' | 'sdk';

/** The SDK's transport factory of a binding over HTTP, on a fetch. */
export type HttpTransport = (options: { fetchImpl: typeof globalThis.fetch; legacyCompat: { enabled: boolean } }) => TransportFactory;

/**
 * One protocol binding, all of it: its name, its place in the client's preference, how its
 * interfaces' addresses are read, what it needs to be available, how its calls are made, and its
 * rows of the wire table. The registry (`registry.ts`) lists them, once; the card schema, the interface
 * choice, agent loading and transport choice iterate it.
 */
export interface Binding<N extends ProtocolBinding = ProtocolBinding> {
  /** The name cards give it (`protocolBinding`, v0.3 `transport`), upper case. */
  readonly name: N;
  /** Its rank in the client's preference, lower first (after the newest protocol version). */
  readonly preference: number;
  /**
   * A binding over HTTP: the SDK's transport of it, on the fetch of the agent's calls. Its
   * interfaces' addresses are http(s) URLs, checked with the card (an unusable one fails the card);
   * another binding's address is read when an interface is chosen, and one it cannot read is skipped.
   */
  readonly http?: HttpTransport;
  /** How its streams are read, which names its transport (`transports/choose.ts`). */
  readonly streams: StreamWay;
  /** Reads an interface's address; undefined when it is none of this binding's forms. */
  address(url: string): BindingAddress | undefined;
  /** Why `url` is no address of this binding, for the card error that names it. */
  unreadable(url: string): string;
  /** The same address on another host (the card's, for an interface naming a bind address), in the form it was written. */
  onHost(url: string, host: string): string;
  /** Its own rows of the wire table (A2A's codes and the HTTP statuses are every binding's). */
  readonly errors: readonly WireError[];
  /** Its step of the classifier: an SDK error of its own transport, read by its rows; undefined for any other. */
  classify?(link: Error, call: FailedCall): A2AError | undefined;
  /**
   * Its own sign, besides -32601 (every binding's), that a call met the agent's other protocol
   * generation (gRPC: UNIMPLEMENTED, each generation's service having a name of its own).
   */
  otherGeneration?(error: A2AError): boolean;
  /** The binding in one factory of ports, for a binding that needs more than a fetch (gRPC). */
  open?(setup: BindingSetup): OpenBinding;
}
