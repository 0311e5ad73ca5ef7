import { tap, type Observable } from 'rxjs';
import { ForwardingPort } from '../../port/forwarding.js';
import type { A2APort, GenerationWait } from '../../port/port.js';
import type { AgentEvent, OutgoingMessage, SendResult, Task } from '../../port/types.js';

/**
 * The turn's port when the caller asked to hear the agent's own objects (`onAgentEvent`): each event
 * of the turn's task, as the turn took it (after its checks), is handed to `heard` before any rung sees
 * it — a blocking send's answer, each stream or resubscribe event, each GetTask snapshot and the
 * CancelTask answer as a `task` event. Signs of life are not the agent's objects and are not handed on.
 * Made only when asked: a turn without `onAgentEvent` has no such port and no per-event work.
 */
export class HeardPort extends ForwardingPort {
  constructor(
    inner: A2APort,
    private readonly heard: (event: AgentEvent) => void,
  ) {
    super(inner);
  }

  override send(message: OutgoingMessage): Observable<SendResult> {
    return this.inner.send(message).pipe(tap((result: SendResult) => this.heard(result)));
  }
  override stream(message: OutgoingMessage): Observable<AgentEvent> {
    return this.inner.stream(message).pipe(tap(this.hear));
  }
  override resubscribe(taskId: string): Observable<AgentEvent> {
    return this.inner.resubscribe(taskId).pipe(tap(this.hear));
  }
  override getTask(taskId: string, historyLength?: number, wait?: GenerationWait): Observable<Task> {
    return this.inner.getTask(taskId, historyLength, wait).pipe(tap((task) => this.heard({ kind: 'task', task })));
  }
  override cancel(taskId: string): Observable<Task> {
    return this.inner.cancel(taskId).pipe(tap((task) => this.heard({ kind: 'task', task })));
  }

  private readonly hear = (event: AgentEvent): void => {
    if (event.kind !== 'alive') this.heard(event);
  };
}
