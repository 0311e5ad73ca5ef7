import {
  JsonRpcContentTypeNotSupportedError,
  JsonRpcExtendedAgentCardNotConfiguredError,
  JsonRpcExtensionSupportRequiredError,
  JsonRpcInvalidAgentResponseError,
  JsonRpcPushNotificationNotSupportedError,
  JsonRpcTaskNotCancelableError,
  JsonRpcTaskNotFoundError,
  JsonRpcUnsupportedOperationError,
  JsonRpcVersionNotSupportedError,
  type JsonRpcA2AError,
  type JsonRpcA2AErrorOptions,
} from '@a2a-js/sdk/errors';

type Typed = new (options?: JsonRpcA2AErrorOptions) => JsonRpcA2AError;

/** An A2A error named in a JSON-RPC error's `data`: its name as the agent gave it, the code A2A gives it, the SDK's typed error for it. */
export interface NamedError {
  /** The name as the agent sent it (`TASK_NOT_FOUND`). */
  readonly reason: string;
  /** The code A2A gives the error (-32001). */
  readonly code: number;
  readonly typed: Typed;
}

/**
 * A2A's error names (v1.0 §5.4: the `google.rpc.ErrorInfo` reasons, each error's name in UPPER_SNAKE
 * without "Error"; only TASK_NOT_FOUND and TASK_NOT_CANCELABLE are spelled out in the text), with their
 * codes and the SDK's typed JSON-RPC errors.
 */
const NAMES: ReadonlyMap<string, { code: number; typed: Typed }> = new Map([
  ['TASK_NOT_FOUND', { code: -32001, typed: JsonRpcTaskNotFoundError }],
  ['TASK_NOT_CANCELABLE', { code: -32002, typed: JsonRpcTaskNotCancelableError }],
  ['PUSH_NOTIFICATION_NOT_SUPPORTED', { code: -32003, typed: JsonRpcPushNotificationNotSupportedError }],
  ['UNSUPPORTED_OPERATION', { code: -32004, typed: JsonRpcUnsupportedOperationError }],
  ['CONTENT_TYPE_NOT_SUPPORTED', { code: -32005, typed: JsonRpcContentTypeNotSupportedError }],
  ['INVALID_AGENT_RESPONSE', { code: -32006, typed: JsonRpcInvalidAgentResponseError }],
  ['EXTENDED_AGENT_CARD_NOT_CONFIGURED', { code: -32007, typed: JsonRpcExtendedAgentCardNotConfiguredError }],
  ['EXTENSION_SUPPORT_REQUIRED', { code: -32008, typed: JsonRpcExtensionSupportRequiredError }],
  ['VERSION_NOT_SUPPORTED', { code: -32009, typed: JsonRpcVersionNotSupportedError }],
]);

/**
 * The codes that say what an error is by themselves: JSON-RPC's (parse error, invalid request, method
 * not found, invalid params), A2A's own and the credential refusals. -32603 (internal error), -32000 and
 * every other server error code say only that the server failed: their data may say what.
 */
const SAYS_ITSELF: ReadonlySet<number> = new Set([
  -32700,
  -32600,
  -32601,
  -32602,
  -31401,
  -31403,
  ...[...NAMES.values()].map((n) => n.code),
]);

/** How many entries of an array `data` are looked through for an ErrorInfo. */
const MAX_DETAILS = 8;

/**
 * The A2A error a JSON-RPC error names in its `data` when its code names none (a generic server error):
 * `data.a2aCode` (`@reactive-agents/a2a` 0.9.0 answers `-32000` with `{ a2aCode: "TASK_NOT_FOUND" }`), or
 * the `reason` of a `google.rpc.ErrorInfo` in the domain `a2a-protocol.org` (v1.0 §9.5: `data` an array of
 * them, or one). Undefined when the code says what the error is, or the data names no A2A error.
 */
export function namedInData(code: unknown, data: unknown): NamedError | undefined {
  if (typeof code === 'number' && SAYS_ITSELF.has(code)) return undefined;
  const reason = a2aCodeOf(data) ?? errorInfoReason(data);
  const named = reason === undefined ? undefined : NAMES.get(reason);
  return named === undefined || reason === undefined ? undefined : { reason, ...named };
}

/**
 * The SDK's typed JSON-RPC error for `named`, as its client throws it for A2A's code: with the agent's
 * own code (`envelopeCode`), data and words (after the name it gave), the error as it came its cause.
 */
export function typedError(
  named: NamedError,
  error: { code?: unknown; message?: unknown; data?: unknown },
  cause?: unknown,
): JsonRpcA2AError {
  return new named.typed({
    message: `${named.reason}: ${typeof error.message === 'string' ? error.message : 'no message'}`,
    ...(typeof error.code === 'number' ? { envelopeCode: error.code } : {}),
    ...(error.data === undefined ? {} : { data: error.data as JsonRpcA2AErrorOptions['data'] }),
    ...(cause === undefined ? {} : { cause }),
  });
}

function a2aCodeOf(data: unknown): string | undefined {
  const code = isRecord(data) ? data['a2aCode'] : undefined;
  return typeof code === 'string' ? code : undefined;
}

function errorInfoReason(data: unknown): string | undefined {
  const details = Array.isArray(data) ? data.slice(0, MAX_DETAILS) : [data];
  for (const detail of details) {
    if (!isRecord(detail) || typeof detail['reason'] !== 'string') continue;
    const type = detail['@type'];
    const domain = detail['domain'];
    if (typeof type === 'string' && type.endsWith('google.rpc.ErrorInfo') && (domain === undefined || domain === 'a2a-protocol.org')) {
      return detail['reason'];
    }
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
