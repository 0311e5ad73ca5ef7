import type { Observable } from 'rxjs';
import type { CardSummary } from './card.js';
import { listTasksOf, type A2APort, type ListTasksOptions, type TaskPage } from './port.js';
import type { AgentEvent, OutgoingMessage, SendResult, Task } from './types.js';

/**
 * The one way to decorate a port: every call goes to `inner` as it is, and a subclass overrides the
 * calls it decorates (the turn's task tracking, telemetry). A port method added here is forwarded by
 * every decorator at once. A class, so a decorator made per turn costs one small object (its
 * methods live on the prototype). An inner port without `listTasks` answers as one without it does
 * (an `unsupported` error).
 */
export class ForwardingPort implements A2APort {
  constructor(protected readonly inner: A2APort) {}

  card(): Observable<CardSummary> {
    return this.inner.card();
  }
  send(message: OutgoingMessage): Observable<SendResult> {
    return this.inner.send(message);
  }
  stream(message: OutgoingMessage): Observable<AgentEvent> {
    return this.inner.stream(message);
  }
  resubscribe(taskId: string): Observable<AgentEvent> {
    return this.inner.resubscribe(taskId);
  }
  getTask(taskId: string, historyLength?: number): Observable<Task> {
    return this.inner.getTask(taskId, historyLength);
  }
  cancel(taskId: string): Observable<Task> {
    return this.inner.cancel(taskId);
  }
  listTasks(contextId: string, options?: ListTasksOptions): Observable<TaskPage> {
    return listTasksOf(this.inner, contextId, options);
  }
}
