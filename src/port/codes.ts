/**
 * The JSON-RPC error codes the client gives a meaning to, named once: A2A's own and JSON-RPC's. The
 * ladder reads some of them on an error's `code` (an agent that says a task is gone); what each means
 * as an error kind is the wire table's (`src/sdk/wire/classify/wire-errors.ts`).
 */

/** JSON-RPC's "method not found": for the ladder, an operation the agent lacks (or the other generation's method names). */
export const METHOD_NOT_FOUND = -32601;
/** JSON-RPC's "invalid params": among others, what servers answer for a contextId they did not issue. */
export const INVALID_PARAMS = -32602;
/** A2A's TaskNotFoundError: the agent does not know the task. */
export const TASK_NOT_FOUND = -32001;
/** A2A's PushNotificationNotSupportedError: the agent keeps no push-notification configs. */
export const PUSH_NOTIFICATION_NOT_SUPPORTED = -32003;
/** A2A's UnsupportedOperationError: the agent does not do that (a resubscribe to a finished task, say). */
export const UNSUPPORTED_OPERATION = -32004;
/** A2A v1.0's ExtensionSupportRequiredError: the call did not activate an extension the agent requires. */
export const EXTENSION_SUPPORT_REQUIRED = -32008;
/**
 * A2A v1.0's VersionNotSupportedError: the agent speaks no protocol version the client does (also the
 * client's own verdict, on a card with only older versions than allowed or a first-draft agent).
 */
export const VERSION_NOT_SUPPORTED = -32009;
/** A2A 1.1's (draft) TaskGenerationMismatchError: the task moved on since the generation a message named. */
export const TASK_GENERATION_MISMATCH = -32010;
/** The code agents send for missing or rejected credentials (a2a-go, a2a-rs): unauthenticated. */
export const UNAUTHENTICATED = -31401;
/** The same for credentials that are not allowed this call: unauthorized. */
export const UNAUTHORIZED = -31403;

/**
 * The HTTP statuses that say "not now" of a request the server did not take: 429 Too Many Requests
 * (RFC 6585) and 503 Service Unavailable (RFC 9110 §15.6.4). Answered before any event, the call may
 * be made again, a send too: the agent did not process it. Their `Retry-After` says when.
 */
export const NOT_NOW_STATUSES: ReadonlySet<number> = new Set([429, 503]);
