import { concat, EMPTY, of, switchMap, type Observable } from 'rxjs';
import type { LadderNote } from '../port/events.js';
import type { A2APort } from '../port/port.js';
import type { AgentEvent, OutgoingMessage } from '../port/types.js';
import { checkCallerTask } from './caller-task.js';
import type { LadderContext } from './context.js';
import type { TurnPolicy } from './policy.js';
import { carriedOver, rotatedContext } from './rotation.js';
import { waitingTask } from './waiting.js';

/** What a message's turn settles before the message goes (see `LadderOptions`). */
export interface FirstSendOptions {
  policy: TurnPolicy;
  lookForWaitingTask?: boolean;
  taskFromCaller?: boolean;
  previousContexts?: readonly string[];
}

/**
 * The message on its way, after what must be settled first: a caller's task id checked to be the
 * thread's (or a previous secret's conversation of it); on a thread's lookup, the conversation it
 * continues after a rotated secret (`previousContexts`) and a task the agent left waiting there.
 * `send` sends (streaming or blocking, by the card). Notes (`task-gone`, `context-adopted`) go first.
 */
export function firstSend(
  port: A2APort,
  ctx: LadderContext,
  agent: string,
  message: OutgoingMessage,
  options: FirstSendOptions,
  send: (message: OutgoingMessage) => Observable<AgentEvent | LadderNote>,
): Observable<AgentEvent | LadderNote> {
  const { contextId, taskId } = message;
  if (contextId === undefined) return send(message);
  const previous = options.previousContexts ?? [];
  if (taskId !== undefined) {
    if (!options.taskFromCaller) return send(message);
    return checkCallerTask(port, options.policy, { ...message, taskId, contextId }, previous).pipe(
      switchMap(({ message: checked, note }) => {
        const moved = checked.contextId !== contextId ? of<LadderNote>(carriedOver(contextId, checked.contextId!)) : EMPTY;
        return concat(moved, note ? of<LadderNote>(note) : EMPTY, send(checked));
      }),
    );
  }
  const look = options.lookForWaitingTask === true && options.policy.continueInterrupted;
  if (!look && previous.length === 0) return send(message);
  const context$ = previous.length > 0 ? rotatedContext(ctx, contextId, previous, agent) : of(contextId);
  return context$.pipe(
    switchMap((chosen) => {
      const moved = chosen === contextId ? message : { ...message, contextId: chosen };
      const sent$ = look
        ? waitingTask(ctx, chosen, agent).pipe(switchMap((waiting) => send(waiting === undefined ? moved : { ...moved, taskId: waiting })))
        : send(moved);
      return chosen === contextId ? sent$ : concat(of<LadderNote>(carriedOver(contextId, chosen)), sent$);
    }),
  );
}
