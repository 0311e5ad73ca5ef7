import { concat, concatMap, from, map, of, switchMap, type Observable } from 'rxjs';
import type { LadderNote } from '../../port/events.js';
import type { A2APort } from '../../port/port.js';
import type { AgentEvent, OutgoingMessage } from '../../port/types.js';
import { checkCallerTask } from './caller-task.js';
import type { LadderContext } from '../context.js';
import type { TurnPolicy } from '../policy.js';
import { carriedOver, rotatedContext } from '../thread/rotation.js';
import { waitingTask } from '../thread/waiting.js';

/** What a message's turn settles before the message goes (see `LadderOptions`). */
export interface FirstSendOptions {
  policy: TurnPolicy;
  lookForWaitingTask?: boolean;
  taskFromCaller?: boolean;
  previousContexts?: readonly string[];
}

/** One step of settling a message: a note that goes first, or the message to send (the last step). */
export type Settling = { note: LadderNote } | { message: OutgoingMessage };

/**
 * Whether anything must be settled before the message goes (see {@link firstLookups}): a caller's
 * task id to check, a thread's lookup, or previous secrets' conversations to look under.
 */
export function needsSettling(message: OutgoingMessage, options: FirstSendOptions): boolean {
  if (message.contextId === undefined) return false;
  if (message.taskId !== undefined) return options.taskFromCaller === true;
  const look = options.lookForWaitingTask === true && options.policy.continueInterrupted;
  return look || (options.previousContexts ?? []).length > 0;
}

/**
 * What must be settled before the message goes, when {@link needsSettling} says so: a
 * caller's task id checked to be the thread's (or a previous secret's conversation of it); on a
 * thread's lookup, the conversation it continues after a rotated secret (`previousContexts`) and a
 * task the agent left waiting there. Its notes (`task-gone`, `context-adopted`) come first, the
 * message to send last.
 *
 * None of it needs the card, so the ladder starts it beside the card (one round trip less on a
 * cold agent whose port does not wait for the card): `agent$` gives the agent's name once the card is
 * read, and the lookups' clocks start then (their bounds are what they were when they waited for it).
 */
export function firstLookups(
  port: A2APort,
  ctx: LadderContext,
  message: OutgoingMessage,
  options: FirstSendOptions,
  agent$: Observable<string>,
): Observable<Settling> {
  const { contextId, taskId } = message;
  if (!needsSettling(message, options) || contextId === undefined) return of({ message });
  const previous = options.previousContexts ?? [];
  if (taskId !== undefined) {
    return checkCallerTask(port, options.policy, { ...message, taskId, contextId }, previous, agent$).pipe(
      concatMap(({ message: checked, note }) => {
        const steps: Settling[] = [];
        if (checked.contextId !== contextId) steps.push({ note: carriedOver(contextId, checked.contextId!) });
        if (note) steps.push({ note });
        steps.push({ message: checked });
        return from(steps);
      }),
    );
  }
  const look = options.lookForWaitingTask === true && options.policy.continueInterrupted;
  const context$ = previous.length > 0 ? rotatedContext(ctx, contextId, previous, agent$) : of(contextId);
  return context$.pipe(
    switchMap((chosen) => {
      const moved = chosen === contextId ? message : { ...message, contextId: chosen };
      const settled$: Observable<Settling> = look
        ? waitingTask(ctx, chosen, agent$).pipe(
            map((waiting) => ({ message: waiting === undefined ? moved : { ...moved, taskId: waiting } })),
          )
        : of({ message: moved });
      return chosen === contextId ? settled$ : concat(of<Settling>({ note: carriedOver(contextId, chosen) }), settled$);
    }),
  );
}

/** The message on its way once settled (see {@link firstLookups}): the notes, then `send`'s events. */
export function sendSettled(
  settling$: Observable<Settling>,
  send: (message: OutgoingMessage) => Observable<AgentEvent | LadderNote>,
): Observable<AgentEvent | LadderNote> {
  return settling$.pipe(concatMap((step) => ('note' in step ? of(step.note) : send(step.message))));
}
