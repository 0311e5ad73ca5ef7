import { defer, type Observable } from 'rxjs';
import { Threads } from '../identity/threads.js';
import type { PortFactory } from '../port/port.js';
import type { Task } from '../port/types.js';
import { cancelTask } from '../turn/task/cancel-task.js';
import type { TurnPolicy } from '../turn/policy.js';
import { checkCancelInput } from './input.js';
import { portTurn } from './on-port.js';
import type { CancelInput } from './types.js';

/** What a client's cancel runs with: its threads (the thread's contextId), its ports, its policy. */
export interface CancelParts {
  threads: Threads;
  ports: PortFactory;
  policy: TurnPolicy;
}

/**
 * `CancelTask` of a task by id ({@link cancelTask}); on a thread, checked first to be the thread's
 * (its contextId: the one given, the one the thread adopted, or the derived one). Its input is checked
 * when subscribed (an `input` error, before any request). Not a turn: nothing is remembered.
 */
export function clientCancel(parts: CancelParts, input: CancelInput): Observable<Task> {
  return defer(() => {
    const url = checkCancelInput(input);
    const port = parts.ports(input.agent, portTurn(input));
    const { handle, thread, taskId } = input;
    if (handle === undefined || thread === undefined) {
      return cancelTask(port, input.contextId === undefined ? { taskId } : { taskId, contextId: input.contextId }, parts.policy);
    }
    const key = Threads.key(url, handle, thread);
    return parts.threads.withContextId(key, { ...input, handle, thread }, (contextId) =>
      cancelTask(port, { taskId, contextId }, parts.policy),
    );
  });
}
