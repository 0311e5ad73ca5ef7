import { catchError, concat, of, switchMap, throwError, type Observable } from 'rxjs';
import { isA2AError, type A2AError } from '../../errors.js';
import { INVALID_PARAMS, METHOD_NOT_FOUND, UNSUPPORTED_OPERATION, VERSION_NOT_SUPPORTED } from '../../port/codes.js';
import type { AgentEvent, OutgoingMessage, SendResult } from '../../port/types.js';
import { cancelWhenNamed } from './cancel.js';
import type { LadderContext } from '../context.js';
import type { ContextRefusedEvent, LadderNote, TaskGoneEvent } from '../../port/events.js';
import { pollUntilSettled } from './poll.js';
import { within } from '../within.js';

/**
 * The blocking rung: one `SendMessage` that returns when the task is terminal or interrupted. A
 * server that answers early, with the task still submitted or working, is finished by `early` (by
 * default polling; a turn followed by push waits for the agent's posts instead).
 */
export function sendBlocking(
  ctx: LadderContext,
  message: OutgoingMessage,
  early: (taskId: string, answer: SendResult) => Observable<AgentEvent | LadderNote> = (taskId) => pollAfterEarly(ctx, taskId),
): Observable<AgentEvent | LadderNote> {
  return ctx.port.send(message).pipe(
    cancelWhenNamed(ctx, message),
    within<SendResult>(ctx.policy.sendTimeoutMs, 'send', 'send'),
    switchMap((result): Observable<AgentEvent | LadderNote> => {
      const taskId = ctx.task.taskId;
      if (ctx.task.settled || taskId === undefined) return of(result);
      return concat(of(result), early(taskId, result));
    }),
    // After the switchMap, so the resend's own events and polls pass through once.
    catchError((error: unknown) => {
      const again = sendAgain(ctx, message, error);
      return again ? concat(of<LadderNote>(again.note), sendBlocking(ctx, again.message, early)) : throwError(() => error);
    }),
  );
}

/** A blocking send answered early: polling until the task settles. */
function pollAfterEarly(ctx: LadderContext, taskId: string): Observable<AgentEvent | LadderNote> {
  return concat(of<LadderNote>({ type: 'polling', reason: 'send-returned-early' }), pollUntilSettled(ctx, taskId, true));
}

/**
 * A message the agent refused before any event in a way that one more send can mend, and that send:
 * a follow-up to a task that is gone ({@link taskGone}), or a contextId the agent did not issue
 * ({@link contextRefused}). Each drops what was refused, so a second refusal is the turn's error.
 */
export function sendAgain(
  ctx: LadderContext,
  message: OutgoingMessage,
  error: unknown,
): { note: LadderNote; message: OutgoingMessage } | undefined {
  return taskGone(ctx, message, error) ?? contextRefused(ctx, message, error);
}

/**
 * The agent's own word that a task is gone: TaskNotFound, or -32004 (UnsupportedOperation, which
 * servers answer for a task that finished). An HTTP 404, 405 or 501 is not: it refuses the method or
 * the path, whatever the task, and the ladder falls back to a blocking send with the task id.
 */
function saysTaskGone(error: unknown): error is A2AError {
  return isA2AError(error, 'task-not-found') || (isA2AError(error, 'unsupported') && error.code === UNSUPPORTED_OPERATION);
}

/**
 * A follow-up to an interrupted task that the agent refused before any event because the task is
 * gone (TaskNotFound) or finished (-32004): the same message again, with the contextId only.
 */
export function taskGone(
  ctx: LadderContext,
  message: OutgoingMessage,
  error: unknown,
): { note: TaskGoneEvent; message: OutgoingMessage } | undefined {
  if (message.taskId === undefined || ctx.task.events > 0 || !saysTaskGone(error)) return undefined;
  const { taskId, ...rest } = message;
  return { note: { type: 'task-gone', taskId, cause: error }, message: rest };
}

/**
 * The agent's word that it does not take the contextId sent (servers that accept only the ones they
 * issued): an invalid-params error (-32602) that speaks of the context, or any protocol error that
 * names the id sent.
 */
function refusesContext(error: unknown, contextId: string): error is A2AError {
  if (!isA2AError(error, 'protocol')) return false;
  return speaksOfContext(error) || error.message.includes(contextId);
}

/** An invalid-params error (-32602) about the context: the conversation is refused, whatever the method. */
function speaksOfContext(error: A2AError): boolean {
  return error.code === INVALID_PARAMS && /context/i.test(error.message);
}

/** The JSON-RPC codes by which an agent refuses a method or its parameters, rather than the request or the task. */
const REFUSES_METHOD: ReadonlySet<number | undefined> = new Set([METHOD_NOT_FOUND, INVALID_PARAMS, UNSUPPORTED_OPERATION]);

/**
 * A stream the agent refused before any event, which one blocking send of the same message may
 * mend: the method or its parameters refused (-32601, -32602, -32004; Juspay's jaf 0.1.37 answers
 * every `message/stream` with -32602, as its request schema admits `message/send` only), or any
 * `unsupported` answer (HTTP 404, 405, 501; gRPC UNIMPLEMENTED). Before any event the agent has
 * taken nothing, so the message is not sent twice. Not a -32602 about the context (the conversation
 * is refused, as a send's would be), nor -32600 (the request object refused, as a send built the same
 * way would be), nor -32009 (the agent's protocol version is not spoken: a send would not be either).
 */
export function streamRefused(ctx: LadderContext, error: unknown): error is A2AError {
  if (ctx.task.events > 0 || !isA2AError(error) || error.code === VERSION_NOT_SUPPORTED) return false;
  return error.kind === 'unsupported' || (REFUSES_METHOD.has(error.code) && !speaksOfContext(error));
}

/**
 * A message whose contextId the agent refused before any event: the same message again without
 * one, so the agent starts a conversation of its own (the client's guard adopts its id for the thread).
 */
export function contextRefused(
  ctx: LadderContext,
  message: OutgoingMessage,
  error: unknown,
): { note: ContextRefusedEvent; message: OutgoingMessage } | undefined {
  const { contextId } = message;
  if (contextId === undefined || contextId === '' || ctx.task.events > 0 || !refusesContext(error, contextId)) return undefined;
  const { contextId: _refused, ...rest } = message;
  return { note: { type: 'context-refused', contextId, cause: error }, message: rest };
}
