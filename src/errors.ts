import type { CardSignature } from './card-signature.js';

/**
 * What went wrong, as a small discriminant the ladder reads (never the message text).
 *
 * - `card`: the agent card could not be fetched or is not usable (its signature too, when a signed
 *   card is required: `signature` in the error says why).
 * - `network`: the connection failed or dropped (socket reset, DNS, refused).
 * - `stream-closed`: a stream ended cleanly before the task settled (a break, like a drop).
 * - `timeout`: a bound ran out; `phase` in the details says which.
 * - `http`: the server answered with an HTTP status we cannot use.
 * - `protocol`: the server's answer is malformed or breaks the protocol.
 * - `unsupported`: the server refused the operation (-32004, HTTP 404/405/501).
 * - `task-not-found`: the server does not know the task (-32001).
 * - `foreign-task`: a task reached by id or position on a thread is not that thread's (it carries
 *   another conversation's contextId, or none): nothing of it was shown, sent or cancelled.
 * - `aborted`: the caller gave up (an external abort signal).
 * - `config`: an option is out of range.
 * - `input`: the caller's input is not usable (empty text, bad URL), found before any I/O; or an
 *   extension the agent requires is not activated (its card marks it `required`, found before any
 *   message is sent, or the agent's ExtensionSupportRequired, -32008): `extensions` names it.
 * - `auth`: the agent refused the credentials (HTTP 401/403, or the JSON-RPC errors agents send for
 *   them), or none could be made; never retryable. `auth` in the error says what was sent (never a value).
 * - `conflict`: A2A 1.1 (draft): the task moved on since the generation the message named (the agent's
 *   TaskGenerationMismatchError, -32010): another answer reached it first. Never retryable as it is.
 * - `queue-full`: the client's own bound (`agentLimits`): the agent's queue of waiting turns was
 *   full, so the turn failed at once and sent nothing. Retryable: later, the queue has room.
 */
export type A2AErrorKind =
  | 'card'
  | 'network'
  | 'stream-closed'
  | 'timeout'
  | 'http'
  | 'protocol'
  | 'unsupported'
  | 'task-not-found'
  | 'foreign-task'
  | 'aborted'
  | 'config'
  | 'input'
  | 'auth'
  | 'conflict'
  | 'queue-full';

/** The operation that failed, as the ladder names it. */
export type A2AOperation =
  'card' | 'send' | 'stream' | 'resubscribe' | 'get-task' | 'cancel' | 'list-tasks' | 'push-config' | 'turn' | 'options';

/** Which bound ran out, on `kind: 'timeout'` errors. */
export type TimeoutPhase = 'card' | 'send' | 'first-event' | 'idle' | 'auth-wait' | 'poll-request' | 'stale' | 'cancel' | 'lookup' | 'turn';

/** What an `auth` error knows: what the card asks for, what kind of credential was sent, the server's challenge. Never a value. */
export interface AuthDetails {
  /** The card's security schemes, as `name (type)`, required ones first; empty when it declares none, absent when the card was not read (its own fetch was refused). */
  schemes?: string[];
  /** What kind of credential went with the request, e.g. `a bearer token (Authorization header)`, or `none`. */
  sent: string;
  /** The `WWW-Authenticate` challenge of a 401/403, when the agent sent one. */
  challenge?: string;
}

/** What an {@link A2AError} is made from: its fields, its message and its cause. */
export interface A2AErrorInit {
  /** What went wrong. */
  kind: A2AErrorKind;
  /** The error's message. */
  message: string;
  /** Whether the ladder may try again (resubscribe or poll) after this error. Defaults by kind. */
  retryable?: boolean;
  /** The operation that failed. */
  operation?: A2AOperation;
  /** The agent's URL (never with credentials). */
  agent?: string;
  /** HTTP status, when one was seen. */
  status?: number;
  /** JSON-RPC / A2A error code, when one was seen. */
  code?: number;
  /** gRPC status code (0–16), when a gRPC call ended with one. */
  grpcCode?: number;
  /** On `timeout` errors: which bound ran out. */
  phase?: TimeoutPhase;
  /** On `auth` errors: the scheme the card declares, what was sent, the challenge. */
  auth?: AuthDetails;
  /** On `card` errors for a required signature: the verdict on the card's signatures (unsigned or invalid, and why). */
  signature?: CardSignature;
  /** The extension URIs the agent requires and the call did not activate, when known. */
  extensions?: readonly string[];
  /** When the call may be made again, in milliseconds from now (see {@link A2AError.retryAfterMs}). */
  retryAfterMs?: number;
  /** The same moment as a time (epoch milliseconds); by default now plus `retryAfterMs`. */
  retryAt?: number;
  /** The underlying error, as the error's `cause`. */
  cause?: unknown;
}

const RETRYABLE_BY_DEFAULT: ReadonlySet<A2AErrorKind> = new Set(['network', 'stream-closed', 'timeout', 'queue-full']);

/**
 * The mark every A2AError carries, shared by every copy of the library in a process (`Symbol.for`):
 * an app that both `import`s the ESM build and `require`s the CommonJS one has two A2AError classes,
 * and this is how each knows the other's errors.
 */
const BRAND = Symbol.for('a4h-a2a.A2AError');

/** The one error class of the library: a kind, a retryable flag, the operation and agent, and the cause. */
export class A2AError extends Error {
  /**
   * `error instanceof A2AError` is also true for an A2AError of another copy of the library (its
   * CommonJS or ESM build); a subclass keeps the ordinary prototype check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return Function.prototype[Symbol.hasInstance].call(this, value) || (this === A2AError && isBranded(value));
  }

  /** Always `A2AError`. */
  override readonly name = 'A2AError';
  /** What went wrong. */
  readonly kind: A2AErrorKind;
  /** Whether the ladder may try again (resubscribe or poll) after this error. */
  readonly retryable: boolean;
  /** The operation that failed. */
  readonly operation?: A2AOperation;
  /** The agent's URL (never with credentials). */
  readonly agent?: string;
  /** HTTP status, when one was seen. */
  readonly status?: number;
  /** JSON-RPC / A2A error code, when one was seen. */
  readonly code?: number;
  /** The gRPC status code (0–16) a gRPC call ended with, when one was seen. */
  readonly grpcCode?: number;
  /** On `timeout` errors: which bound ran out. */
  readonly phase?: TimeoutPhase;
  /** On `auth` errors: what the card asks for, what was sent, the challenge. */
  readonly auth?: AuthDetails;
  /** On `card` errors for a required signature: the verdict on the card's signatures. */
  readonly signature?: CardSignature;
  /** The extension URIs the agent requires and the call did not activate, when known (`input` errors). */
  readonly extensions?: readonly string[];
  /**
   * On an agent's HTTP 429 or 503 (gRPC RESOURCE_EXHAUSTED or UNAVAILABLE with a `retry-after`):
   * how long after the error the call may be made again, in milliseconds — the agent's `Retry-After`
   * (seconds or an HTTP date), or, when it named no time, the next delay of the policy's
   * `retryAfter` backoff. A turn's error has it once the ladder stopped waiting (its
   * `retryAfter.maxTries` used, or a wait that would pass the turn's deadline, the call's bound or
   * `retryAfter.maxWaitMs`): a gateway can answer its own 503 with it.
   */
  readonly retryAfterMs?: number;
  /** With {@link A2AError.retryAfterMs}: the same moment as a time (epoch milliseconds, `Date.now()`'s clock). */
  readonly retryAt?: number;

  /** An error of `init.kind`; `retryable` defaults by kind (`network`, `stream-closed`, `timeout` and `queue-full` are). */
  constructor(init: A2AErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.retryable = init.retryable ?? RETRYABLE_BY_DEFAULT.has(init.kind);
    if (init.operation !== undefined) this.operation = init.operation;
    if (init.agent !== undefined) this.agent = init.agent;
    if (init.status !== undefined) this.status = init.status;
    if (init.code !== undefined) this.code = init.code;
    if (init.grpcCode !== undefined) this.grpcCode = init.grpcCode;
    if (init.phase !== undefined) this.phase = init.phase;
    if (init.auth !== undefined) this.auth = init.auth;
    if (init.signature !== undefined) this.signature = init.signature;
    if (init.extensions !== undefined) this.extensions = init.extensions;
    if (init.retryAfterMs !== undefined) {
      this.retryAfterMs = init.retryAfterMs;
      this.retryAt = init.retryAt ?? Date.now() + init.retryAfterMs;
    }
  }
}
Object.defineProperty(A2AError.prototype, BRAND, { value: true });

function isBranded(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
}

/**
 * True when `error` is an {@link A2AError} (of any copy of the library: it reads the mark, not the
 * prototype chain), optionally of one of `kinds`.
 */
export function isA2AError(error: unknown, ...kinds: A2AErrorKind[]): error is A2AError {
  return isBranded(error) && (kinds.length === 0 || kinds.includes((error as A2AError).kind));
}

/** Wraps anything thrown into an {@link A2AError}; an A2AError passes through unchanged. */
export function toA2AError(error: unknown, operation?: A2AOperation): A2AError {
  if (error instanceof A2AError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new A2AError({ kind: 'protocol', message, cause: error, ...(operation ? { operation } : {}) });
}

/**
 * The error with the agent (and the operation, when it had none) in its fields and its message,
 * as `<operation> to <agent>: <message>`; an error that names its agent already is returned as it is.
 */
export function naming(error: A2AError, agent: string, operation: A2AOperation): A2AError {
  if (error.agent !== undefined) return error;
  const op = error.operation ?? operation;
  return new A2AError({ ...initOf(error), operation: op, agent, message: `${op} to ${agent}: ${error.message}` });
}

/**
 * The error with when it may be tried again ({@link A2AError.retryAfterMs}, and `retryAt` from now);
 * its kind, fields, message and cause as they were.
 */
export function retryingAfter(error: A2AError, retryAfterMs: number): A2AError {
  const init = initOf(error);
  delete init.retryAt;
  return new A2AError({ ...init, retryAfterMs });
}

/** Every field of `error` as an {@link A2AErrorInit} (its message too), the ones it lacks left out. */
function initOf(error: A2AError): A2AErrorInit {
  const init: A2AErrorInit = { kind: error.kind, retryable: error.retryable, message: error.message };
  for (const key of FIELDS) if (error[key] !== undefined) Object.assign(init, { [key]: error[key] });
  if (error.cause !== undefined) init.cause = error.cause;
  return init;
}

/** The optional fields an error is made with, each kept as it is when an error is made again. */
const FIELDS = [
  'operation',
  'agent',
  'status',
  'code',
  'grpcCode',
  'phase',
  'auth',
  'signature',
  'extensions',
  'retryAfterMs',
  'retryAt',
] as const satisfies readonly (keyof A2AErrorInit & keyof A2AError)[];

/** A timeout error for one phase of the turn. */
export function timeoutError(phase: TimeoutPhase, ms: number, operation: A2AOperation): A2AError {
  return new A2AError({
    kind: 'timeout',
    phase,
    operation,
    retryable: RETRYABLE_PHASES.has(phase),
    message: `${phase} timed out after ${ms} ms`,
  });
}

/** A quiet stream or a slow poll may be tried again; the other bounds are final. */
const RETRYABLE_PHASES: ReadonlySet<TimeoutPhase> = new Set(['card', 'first-event', 'idle', 'poll-request']);
