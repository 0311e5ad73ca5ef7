import { catchError, lastValueFrom, switchMap, throwError, type Observable } from 'rxjs';
import { A2AError, type A2APort, isA2AError, isTerminal, protocolTask, type Task, WIRE_STATES, within } from '../../../node/index.js';
import type { Call } from '../../core/command.js';
import { printResult, warnOutcome } from '../../output/print.js';
import { taskRecord } from '../../output/text.js';
import { defineTaskCommand, ONE_TASK_OPTIONS, onTask, REQUEST_TIMEOUT_MS } from './common.js';

/** The flags `a4h task cancel` takes. */
export const TASK_CANCEL_OPTIONS = ONE_TASK_OPTIONS;

/** `a4h task cancel`. */
export const taskCancel = defineTaskCommand({
  name: 'task cancel',
  usage: `Usage: a4h task cancel <task-id>|--task-id ID -a REF [-o text|json]

Cancels a task (CancelTask) and prints the task as the agent has it after the cancel: its id, context
id and state. Idempotent: a task already canceled is printed as it is, exit 0. A task that ended
otherwise (completed, failed, rejected) cannot be canceled: TaskNotCancelableError naming its state,
exit 1.`,
  options: TASK_CANCEL_OPTIONS,
  run: cancelTask,
});

async function cancelTask(call: Call<typeof TASK_CANCEL_OPTIONS>): Promise<number> {
  const { io, mode } = call;
  return onTask(call, async ({ port }, { taskId }) => {
    const task = await lastValueFrom(cancelIdempotently(port, taskId));
    printResult(io, mode, protocolTask(task), taskRecord(task));
    if (task.status.state !== 'canceled') warnOutcome(io, task.status.state, task.status);
    return 0;
  });
}

/**
 * `CancelTask`, idempotent: when the agent refuses it (a task that has ended is not cancelable), one
 * `GetTask` says why. A task already canceled is the answer, as a first cancel's would be; one that
 * ended otherwise fails with the agent's refusal (its code and cause kept, so its A2A name shows),
 * its message naming the state. A task the agent does not know, refused credentials and failures on
 * the way are errors as they are.
 */
export function cancelIdempotently(port: A2APort, taskId: string): Observable<Task> {
  return port.cancel(taskId).pipe(
    within<Task>(REQUEST_TIMEOUT_MS, 'cancel', 'cancel'),
    catchError((refusal: unknown) => {
      if (!isA2AError(refusal, 'protocol', 'unsupported', 'http')) return throwError(() => refusal);
      return port.getTask(taskId).pipe(
        within<Task>(REQUEST_TIMEOUT_MS, 'poll-request', 'get-task'),
        catchError(() => throwError(() => refusal)),
        switchMap((task) => {
          if (task.status.state === 'canceled') return [task];
          if (!isTerminal(task.status.state)) return throwError(() => refusal);
          const state = WIRE_STATES[task.status.state];
          return throwError(
            () =>
              new A2AError({
                kind: refusal.kind,
                operation: 'cancel',
                ...(refusal.agent === undefined ? {} : { agent: refusal.agent }),
                ...(refusal.code === undefined ? {} : { code: refusal.code }),
                ...(refusal.status === undefined ? {} : { status: refusal.status }),
                message: `task ${taskId} is ${state}: it cannot be canceled (${refusal.message})`,
                cause: refusal,
              }),
          );
        }),
      );
    }),
  );
}
