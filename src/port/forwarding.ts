import type { Observable } from 'rxjs';
import type { CardSummary } from './card.js';
import { listTasksOf, type A2APort, type ListTasksOptions, type TaskPage, type GenerationWait } from './port.js';
import { pushConfigsOf, type NewPushConfig, type PushConfig, type PushConfigPage, type PushConfigPort } from './push-configs.js';
import type { AgentEvent, OutgoingMessage, SendResult, Task } from './types.js';

/**
 * The one way to decorate a port: every call goes to `inner` as it is, and a subclass overrides the
 * calls it decorates, with `super` (or `this.inner`) for the agent's answer, as a2a-js users wrap
 * calls with the SDK's interceptors. A port method added here is forwarded by every decorator at once.
 * A class, so a decorator made per turn costs one small object (its methods live on the prototype).
 * An inner port without `listTasks` (or the push-config calls) answers as one without it does (an
 * `unsupported` error).
 *
 * The library's own decorators extend it (the turn's task tracking, the retry after a 429 or 503,
 * telemetry's span, the command line's delivery port); a program's are handed to `createA2A` as its
 * `ports`, each wrapping a port of `createSdkPorts` (docs/client.md, "Decorating a port"). A call is a
 * cold Observable: a decorator does its work when the call is subscribed (in `defer`), not when the
 * method is called.
 *
 * @example A port that logs each stream it opens:
 * ```ts
 * class LoggedPort extends ForwardingPort {
 *   override stream(message: OutgoingMessage): Observable<AgentEvent> {
 *     return defer(() => {
 *       console.error(`stream ${message.messageId}`);
 *       return super.stream(message);
 *     });
 *   }
 * }
 * const sdkPorts = createSdkPorts();
 * const a2a = createA2A({ ports: (agent, turn) => new LoggedPort(sdkPorts(agent, turn)) });
 * ```
 */
export class ForwardingPort implements A2APort, PushConfigPort {
  /** The port every call goes to. */
  protected readonly inner: A2APort;

  /** A port that forwards every call to `inner`. */
  constructor(inner: A2APort) {
    this.inner = inner;
  }

  /** The inner port's card. */
  card(): Observable<CardSummary> {
    return this.inner.card();
  }
  /** The inner port's blocking send. */
  send(message: OutgoingMessage): Observable<SendResult> {
    return this.inner.send(message);
  }
  /** The inner port's streaming send. */
  stream(message: OutgoingMessage): Observable<AgentEvent> {
    return this.inner.stream(message);
  }
  /** The inner port's resubscription to a task. */
  resubscribe(taskId: string): Observable<AgentEvent> {
    return this.inner.resubscribe(taskId);
  }
  /** The inner port's `GetTask`. */
  getTask(taskId: string, historyLength?: number, wait?: GenerationWait): Observable<Task> {
    return this.inner.getTask(taskId, historyLength, wait);
  }
  /** The inner port's `CancelTask`. */
  cancel(taskId: string): Observable<Task> {
    return this.inner.cancel(taskId);
  }
  /** The inner port's `ListTasks` (an `unsupported` error when it has none). */
  listTasks(contextId: string, options?: ListTasksOptions): Observable<TaskPage> {
    return listTasksOf(this.inner, contextId, options);
  }
  /** The inner port's `CreateTaskPushNotificationConfig` (an `unsupported` error when it has none). */
  createPushConfig(config: NewPushConfig): Observable<PushConfig> {
    return pushConfigsOf(this.inner).createPushConfig(config);
  }
  /** The inner port's `GetTaskPushNotificationConfig`. */
  getPushConfig(taskId: string, configId: string): Observable<PushConfig> {
    return pushConfigsOf(this.inner).getPushConfig(taskId, configId);
  }
  /** The inner port's `ListTaskPushNotificationConfigs`. */
  listPushConfigs(taskId: string, page?: { pageSize?: number; pageToken?: string }): Observable<PushConfigPage> {
    return pushConfigsOf(this.inner).listPushConfigs(taskId, page);
  }
  /** The inner port's `DeleteTaskPushNotificationConfig`. */
  deletePushConfig(taskId: string, configId: string): Observable<true> {
    return pushConfigsOf(this.inner).deletePushConfig(taskId, configId);
  }
}
