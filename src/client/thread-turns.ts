import { from, switchMap, tap, type Observable } from 'rxjs';
import type { Threads } from '../identity/threads.js';
import type { TurnEvent } from '../port/events.js';
import { afterDelivered } from '../render/position.js';
import { resumeMessage, resumeThread } from '../turn/resume.js';
import { runCheckedTurn, runResume, type TurnRequest } from '../turn/turn.js';
import type { Ladder } from './in-flight.js';
import type { ThreadResumeInput } from './input.js';
import type { OnPort } from './on-port.js';
import type { ResumeInput, TurnInput } from './types.js';

/** What a thread's turns run on: the client's threads and its ports. */
export interface ThreadTurnParts {
  threads: Threads;
  onPort: OnPort;
}

/**
 * A thread's message, with the thread's `contextId`: the task it continues (the caller's, checked at
 * the agent before the message goes; or the one the thread left waiting), a lookup for a waiting
 * task when the thread decides so, and what the thread keeps of the turn.
 */
export function threadTurn(
  parts: ThreadTurnParts,
  input: TurnInput,
  key: string,
  contextId: string,
  ladder: Ladder,
): Observable<TurnEvent> {
  const plan = parts.threads.message(key, input.taskId, input.contextId !== undefined);
  const {
    agent: _agent,
    handle: _handle,
    thread: _thread,
    onLeave: _onLeave,
    extensions: _extensions,
    taskId: _taskId,
    actsOn: _actsOn,
    ...message
  } = input;
  const request: TurnRequest = plan.taskId === undefined ? { ...message, contextId } : { ...message, contextId, taskId: plan.taskId };
  // A2A 1.1 (draft): the thread's own answer names its question's generation, as `answerTo`'s does.
  if (plan.ownGeneration !== undefined && request.ifGenerationMatch === undefined) request.ifGenerationMatch = plan.ownGeneration;
  const options = plan.look || plan.fromCaller ? { ...ladder, lookForWaitingTask: plan.look, taskFromCaller: plan.fromCaller } : ladder;
  // Only a task the thread itself remembered goes back to it if the turn never reaches it.
  const sent = {
    contextId,
    ...(plan.own === undefined ? {} : { taskId: plan.own }),
    ...(plan.ownGeneration === undefined ? {} : { generation: plan.ownGeneration }),
    ...(plan.rotate ? { rotates: true } : {}),
  };
  const run = (previous: readonly string[]) => {
    const previousContexts = previous.filter((id) => id !== contextId);
    return parts.onPort(input, (port) =>
      runCheckedTurn(port, request, previousContexts.length > 0 ? { ...options, previousContexts } : options).pipe(
        parts.threads.remember(key, sent, input),
      ),
    );
  };
  // The thread's contextIds under rotated secrets: for its first message's lookup, and to check a caller's task.
  if (!plan.rotate && !(plan.fromCaller && input.contextId === undefined)) return run([]);
  const previous = parts.threads.previousContexts(input.handle, input.thread);
  return Array.isArray(previous) ? run(previous) : from(previous).pipe(switchMap(run));
}

/**
 * A thread's reply in flight, followed: its task by id or position (checked to be the thread's), the
 * task carrying one of its messages, or its newest unfinished task. Nothing is adopted.
 */
export function threadResume(
  parts: ThreadTurnParts,
  input: ThreadResumeInput,
  key: string,
  contextId: string,
  ladder: Ladder,
): Observable<TurnEvent> {
  return parts.onPort(input, (port) => {
    const taskId = input.from?.taskId ?? input.taskId;
    let resumed$: Observable<TurnEvent>;
    if (taskId !== undefined) resumed$ = runResume(port, { taskId, contextId }, ladder);
    else if (input.messageId !== undefined) {
      resumed$ = resumeMessage(port, contextId, input.messageId, {
        ...ladder,
        ...(input.sentAt === undefined ? {} : { sentAt: input.sentAt }),
      });
    } else {
      // A thread resumed to its end was looked up: a task left waiting is remembered, so its next message need not ask.
      resumed$ = resumeThread(port, contextId, ladder).pipe(
        tap((event) => {
          if (event.type === 'end') parts.threads.lookedUp(key);
        }),
      );
    }
    const rest$ = input.from === undefined ? resumed$ : resumed$.pipe(afterDelivered(input.from.delivered, input.from.digest));
    return rest$.pipe(parts.threads.remember(key, { contextId }, undefined));
  });
}

/** A task followed without a thread (the caller vouches for it): nothing is checked (but a `contextId` given) or remembered. */
export function taskResume(
  parts: Pick<ThreadTurnParts, 'onPort'>,
  input: ResumeInput,
  taskId: string,
  ladder: Ladder,
): Observable<TurnEvent> {
  return parts.onPort(input, (port) => {
    const resumed$ = runResume(port, input.contextId === undefined ? { taskId } : { taskId, contextId: input.contextId }, ladder);
    return input.from === undefined ? resumed$ : resumed$.pipe(afterDelivered(input.from.delivered, input.from.digest));
  });
}
