import { lastValueFrom, tap } from 'rxjs';
import { type AgentEvent, followTask, isSettled, protocolTask, type Task, type TaskState, within } from '../../../node/index.js';
import type { Call } from '../../core/command.js';
import { finalRecord, printEvent, printResult, warnOutcome } from '../../output/print.js';
import { writeRecord } from '../../output/output.js';
import { taskRecord } from '../../output/text.js';
import { defineTaskCommand, ONE_TASK_OPTIONS, onTask, REQUEST_TIMEOUT_MS } from './common.js';
import { PUSH_OPTIONS, pushPlanOf, subscribeByPush } from './subscribe-push.js';

/** How often a broken stream is subscribed to again, with no event between: 5 times, 0.5 s growing to 8 s. */
export const RESUBSCRIBE = { maxAttempts: 5, initialDelayMs: 500, factor: 2, maxDelayMs: 8_000, jitter: 0.3 };

/** The flags `a4h task subscribe` takes. */
export const TASK_SUBSCRIBE_OPTIONS = {
  ...ONE_TASK_OPTIONS,
  stream: { type: 'boolean' },
  ...PUSH_OPTIONS,
} as const;

/** `a4h task subscribe`. */
export const taskSubscribe = defineTaskCommand({
  name: 'task subscribe',
  usage: `Usage: a4h task subscribe <task-id>|--task-id ID -a REF [--stream] [-o text|json]
                                  [--push [--push-listen HOST:PORT] [--push-url URL]]

Follows a task's events (SubscribeToTask) until it ends or waits for you (input or auth required).
The agent sends the whole task first, so nothing needs reading before; a stream that breaks is
subscribed to again (5 times in a row at most, after 0.5s growing to 8s), its first event the whole
task again. A task that has ended already is read once (GetTask).
  --stream               print each event as it comes: under -o json one StreamResponse per line
                         (JSON Lines), in text one record per event, the last restating the task's id,
                         context id and state (default: only the task as it settled)
  --push                 follow the task by the agent's push notifications instead of a stream (A2A's
                         webhooks): a local receiver listens, a push config on the task names it, and
                         each checked push is printed as a stream event would be (with --stream); the
                         task is read first (the record of what came before) and again every 30s (a
                         lost push), and the config is deleted at the end and on Ctrl-C. A push
                         without the credential the config gave (derived from A4H_IDENTITY_SECRET, or
                         a secret made for this run when it is not set), for another thread or task,
                         too large or sent again is refused or dropped, never printed. Progress on
                         stderr: "listening for pushes at URL". The agent's card must offer push
                         notifications (PushNotificationNotSupportedError otherwise).
  --push-listen HOST:PORT  where the receiver listens (default 127.0.0.1:0, a free port on loopback)
  --push-url URL         the address the agent posts to, when it is not the listening one (a tunnel, a
                         proxy in front; default http://HOST:PORT/ of --push-listen)`,
  options: TASK_SUBSCRIBE_OPTIONS,
  run: subscribeTask,
});

async function subscribeTask(call: Call<typeof TASK_SUBSCRIBE_OPTIONS>): Promise<number> {
  const { io, mode, values } = call;
  const push = pushPlanOf(values);
  return onTask(call, async ({ port }, { taskId }) => {
    let last: { id: string; contextId?: string; state: TaskState } | undefined;
    const show = (event: AgentEvent): void => {
      last = progress(last, event, taskId);
      if (mode.stream) printEvent(io, mode, event);
    };
    if (push === undefined) {
      await lastValueFrom(followTask(port, taskId, RESUBSCRIBE).pipe(tap(show)), { defaultValue: undefined });
    } else if ((await subscribeByPush(io, values, push, port, taskId, REQUEST_TIMEOUT_MS, show)) === undefined) {
      return 0; // stdout's reader went away
    }
    const state = last?.state ?? 'unknown';
    if (mode.stream) {
      if (mode.format === 'text' && last !== undefined) writeRecord(io, finalRecord(last));
    } else {
      // The terminal Task as one document: the whole task as the agent has it now.
      const task = await lastValueFrom(port.getTask(taskId).pipe(within<Task>(REQUEST_TIMEOUT_MS, 'poll-request', 'get-task')));
      printResult(io, mode, protocolTask(task), taskRecord(task));
    }
    if (isSettled(state)) warnOutcome(io, state);
    return 0;
  });
}

/** The task's ids and state as the events so far say them. */
function progress(
  last: { id: string; contextId?: string; state: TaskState } | undefined,
  event: AgentEvent,
  taskId: string,
): { id: string; contextId?: string; state: TaskState } | undefined {
  const contextId =
    (event.kind === 'task' ? event.task.contextId : event.kind === 'status' || event.kind === 'artifact' ? event.contextId : undefined) ??
    last?.contextId;
  const state = event.kind === 'task' ? event.task.status.state : event.kind === 'status' ? event.status.state : last?.state;
  if (state === undefined) return last;
  return contextId === undefined ? { id: taskId, state } : { id: taskId, contextId, state };
}
