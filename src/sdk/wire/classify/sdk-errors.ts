import {
  ExtensionSupportRequiredError,
  JsonRpcTransportError,
  A2AError as SdkA2AError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import { A2AError, naming, type A2AOperation, type AuthDetails } from '../../../errors.js';
import { explainAuth } from '../../http/credentials/auth-error.js';
import {
  EXTENSION_SUPPORT_REQUIRED,
  METHOD_NOT_FOUND,
  TASK_GENERATION_MISMATCH,
  TASK_NOT_FOUND,
  UNSUPPORTED_OPERATION,
} from '../../../port/codes.js';
import { extensionRefusal } from '../../http/extensions/refusal.js';
import type { FailedCall } from '../bindings/binding.js';
import { BINDINGS } from '../bindings/registry.js';
import { wireMeaning } from './wire-errors.js';
import { anythingElse, authRefusal, httpFailure, refused, socketDrop, statusSeen } from './failures.js';
import { namedInData, typedError } from './error-names.js';
import { NOT_NOW_STATUSES } from '../../../port/codes.js';
import { retryingAfter } from '../../../errors.js';

/** What the port knows about the failed call besides the thrown value. */
export interface CallContext {
  operation: A2AOperation;
  agent: string;
  /** The HTTP status of the call's response, when one arrived. */
  status?: number;
  /** What an `auth` error of this call says about the card's schemes and what was sent. */
  auth?: AuthDetails;
  /** A 429's or 503's `Retry-After`, in milliseconds from the answer, when it named one. */
  retryAfterMs?: number;
}

/**
 * Classifies whatever the SDK threw into an {@link A2AError} with a kind the ladder reads. The typed
 * error is looked for in `.cause` too (the SDK's v0.3 SSE path wraps it); a socket drop is a
 * `TypeError` (`terminated`, `fetch failed`); an HTTP status the SDK only put in its message is
 * taken from the response the port saw. Messages name the agent and operation, never headers.
 */
export function classifySdkError(error: unknown, context: CallContext): A2AError {
  const classified = classify(error, context);
  if (classified.kind === 'auth') return explainAuth(classified, context.auth);
  return context.retryAfterMs === undefined ? classified : saidWhen(classified, context.retryAfterMs);
}

/** A 429 or 503 that said when to ask again (`Retry-After`): the error carries it, as `retryAfterMs`. */
function saidWhen(error: A2AError, retryAfterMs: number): A2AError {
  const notNow = error.kind === 'http' && error.status !== undefined && NOT_NOW_STATUSES.has(error.status);
  return notNow && error.retryAfterMs === undefined ? retryingAfter(error, retryAfterMs) : error;
}

/**
 * Each link of the `.cause` chain (a few deep: the SDK wraps once or twice) is asked, outermost
 * first, whether it is ours, a typed SDK error or another SDK error (one whose data names an A2A error
 * read as the typed error of that name: {@link named}); when none is, the HTTP status the port saw, a
 * socket drop and anything else are asked of the thrown value itself.
 */
function classify(error: unknown, context: CallContext): A2AError {
  const call: FailedCall = {
    base: { operation: context.operation, agent: context.agent, cause: error },
    what: `${context.operation} to ${context.agent}`,
  };
  for (let link: unknown = error, depth = 0; link instanceof Error && depth < 5; link = link.cause, depth++) {
    const typed = named(link);
    // A typed error made from the agent's data is the cause: what the agent said it was, its SDK error behind it.
    const read = typed ?? link;
    const at = typed === undefined ? call : { ...call, base: { ...call.base, cause: typed } };
    const found =
      ours(read, context) ?? typedSdkError(read, at, context.status) ?? bindingError(read, at) ?? sdkError(read, at, context.status);
    if (found !== undefined) return found;
  }
  return statusSeen(context.status, call) ?? socketDrop(error, call) ?? anythingElse(error, call);
}

/**
 * Ours (a malformed event the mapping found, a bound on an answer's size, even under the SDK's
 * wrapping): it is the reason, and it gains the agent and the operation.
 */
function ours(link: Error, context: CallContext): A2AError | undefined {
  return link instanceof A2AError ? naming(link, context.agent, context.operation) : undefined;
}

/**
 * A JSON-RPC error the SDK could not type (its code is a generic server error: -32000, -32603) whose
 * data names an A2A error (`error-names.ts`): the SDK's typed error of that name, keeping the agent's
 * code, data and words, the SDK's error its cause. Classified as if A2A's code had come; the CLI's
 * envelope names it by the typed error.
 */
function named(link: Error): Error | undefined {
  if (!(link instanceof JsonRpcTransportError)) return undefined;
  const found = namedInData(link.envelopeCode, link.data);
  return found && typedError(found, { code: link.envelopeCode, message: link.message, data: link.data }, link);
}

/**
 * The A2A code a typed SDK error stands for: by its class, since the HTTP+JSON transport's carry no
 * code; or -32601 by the code itself, which the SDK reads as a malformed request and the ladder as an
 * operation the agent lacks.
 */
function standsFor(link: Error): number | undefined {
  if (link instanceof TaskNotFoundError) return TASK_NOT_FOUND;
  if (link instanceof UnsupportedOperationError) return UNSUPPORTED_OPERATION;
  if (link instanceof ExtensionSupportRequiredError) return EXTENSION_SUPPORT_REQUIRED;
  const code = codeOf(link);
  // Codes the SDK has no class for, read as the wire table says: -32601, and 1.1's (draft) -32010.
  return code === METHOD_NOT_FOUND || code === TASK_GENERATION_MISMATCH ? code : undefined;
}

/**
 * A typed SDK error whose code means the agent does not know the task, does not do the operation, or
 * requires an extension the call did not activate (named when the agent's words or data name it).
 */
function typedSdkError(link: Error, call: FailedCall, seen: number | undefined): A2AError | undefined {
  const code = standsFor(link);
  const meaning = wireMeaning('json-rpc', code);
  switch (meaning?.kind) {
    case 'task-not-found':
      return new A2AError({
        ...call.base,
        kind: meaning.kind,
        retryable: meaning.retryable,
        // The code the agent sent when the error has one (-32000 naming TASK_NOT_FOUND stays -32000), else the class's.
        code: codeOf(link) ?? code,
        message: `${call.what}: the agent does not know the task (${link.message})`,
      });
    case 'unsupported':
      // The code the agent sent when the error has one (-32601 stays -32601), else the class's.
      return new A2AError({
        ...call.base,
        kind: meaning.kind,
        retryable: meaning.retryable,
        code: codeOf(link) ?? code,
        message: `${call.what} is not supported by the agent (${link.message})`,
      });
    case 'input': {
      const status = statusOf(link) ?? seen;
      const refusal = extensionRefusal(link.message, (link as { data?: unknown }).data ?? (link as { metadata?: unknown }).metadata);
      return new A2AError({
        ...call.base,
        kind: meaning.kind,
        retryable: meaning.retryable,
        code: codeOf(link) ?? code,
        ...(status === undefined ? {} : { status }),
        ...(refusal.extensions ? { extensions: refusal.extensions } : {}),
        message: `${call.what}: ${refusal.message}`,
      });
    }
    case 'conflict':
      return new A2AError({
        ...call.base,
        kind: meaning.kind,
        retryable: meaning.retryable,
        code: codeOf(link) ?? code,
        message: `${call.what}: the task moved on since the generation the message named: another answer reached it first (${link.message})`,
      });
    default:
      return undefined;
  }
}

/** The steps of the bindings that read their own transports' errors (gRPC's statuses), in the registry's order. */
const BINDING_STEPS = BINDINGS.flatMap((binding) => (binding.classify ? [binding.classify] : []));

/** An SDK error of a binding's own transport, read by that binding (gRPC's statuses by its rows). */
function bindingError(link: Error, call: FailedCall): A2AError | undefined {
  for (const step of BINDING_STEPS) {
    const found = step(link, call);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Any other SDK error, read by the HTTP status it carries (or the port saw) and its JSON-RPC code. */
function sdkError(link: Error, call: FailedCall, seen: number | undefined): A2AError | undefined {
  if (!(link instanceof SdkA2AError)) return undefined;
  const status = statusOf(link) ?? seen;
  const code = codeOf(link);
  const byStatus = wireMeaning('http', status);
  const byCode = wireMeaning('json-rpc', code);
  if (byStatus?.kind === 'auth' || byCode?.kind === 'auth') return authRefusal(call, status, byCode?.kind === 'auth' ? code : undefined);
  if (status === undefined) return protocolError(link, call, code, status);
  if (byStatus?.kind === 'unsupported') return refused(call, status);
  // The HTTP+JSON transport reports an HTTP error with no A2A reason (a proxy's 503, a bare 500)
  // as a plain SDK A2AError carrying the status: an HTTP failure, as on the JSON-RPC path.
  if (status >= 400 && code === undefined && link.name === 'A2AError') return httpFailure(call, status, byStatus);
  // A generic JSON-RPC error (not one of A2A's own) under a transient HTTP status is an overloaded
  // or restarting server, worth another try like the same status without a body.
  if (byStatus?.retryable === true) {
    return new A2AError({
      ...call.base,
      kind: byStatus.kind,
      status,
      retryable: true,
      ...(code === undefined ? {} : { code }),
      message: `${call.what} failed with HTTP ${status}: ${link.message}`,
    });
  }
  return protocolError(link, call, code, status);
}

/** An SDK error that means nothing the ladder has a rung for: its code and status, and its words. */
function protocolError(link: Error, call: FailedCall, code: number | undefined, status: number | undefined): A2AError {
  return new A2AError({
    ...call.base,
    kind: 'protocol',
    ...(code === undefined ? {} : { code }),
    ...(status === undefined ? {} : { status }),
    message: `${call.what} failed: ${link.message}`,
  });
}

function codeOf(error: object): number | undefined {
  const code = (error as { envelopeCode?: unknown }).envelopeCode;
  return typeof code === 'number' ? code : undefined;
}

function statusOf(error: object): number | undefined {
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' ? status : undefined;
}
