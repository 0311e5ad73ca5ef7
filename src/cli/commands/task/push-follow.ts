import { randomUUID } from 'node:crypto';
import {
  catchError,
  EMPTY,
  exhaustMap,
  filter,
  firstValueFrom,
  lastValueFrom,
  map,
  merge,
  type Observable,
  ReplaySubject,
  takeUntil,
  takeWhile,
  tap,
  throwError,
  timer,
} from 'rxjs';
import {
  A2AError,
  type A2APort,
  type AgentEvent,
  isA2AError,
  isSettled,
  type PushConfigPort,
  type PushSource,
  type Task,
  type TaskState,
  within,
} from '../../../node/index.js';

/** Pushes held while the config is made and the task read (the agent may post before both answer): past it, the oldest go. */
const MAX_HELD = 1024;

/** How often a task followed by push is read once more (GetTask): a push lost on the way does not leave the command waiting for ever. */
export const PUSH_CHECK_MS = 30_000;

/** What {@link followByPush} needs. */
export interface PushFollow {
  port: A2APort & PushConfigPort;
  taskId: string;
  /** The local receiver: the target a config names, and the checked pushes of a thread. */
  source: PushSource;
  /** Each request's bound (ms). */
  requestTimeoutMs: number;
  /** How often the task is read meanwhile (ms); {@link PUSH_CHECK_MS} by default. */
  checkEveryMs?: number;
  /** Each event to print, in order: the task as it stood once the config was made, then each push of this task. */
  show(event: AgentEvent): void;
  /** Emits when the person stops the command (Ctrl-C, SIGTERM, a closed stdout). */
  stop$: Observable<unknown>;
  /** Told when the config could not be deleted at the end (it names the config and the error). */
  leftConfig(configId: string, error: unknown): void;
  /** Told the config's id before it is made: the receiver then shows only the posts its URL names (see {@link CONFIG_PARAM}). */
  ownConfig?(configId: string): void;
}

/**
 * The query parameter a config's URL carries its id in: another config's posts to the same receiver (a
 * message's, `send --push-url`) are the same events again, and are not shown twice.
 */
export const CONFIG_PARAM = 'a4h-config';

/** How a follow ended: the task's ids and its last known state, and whether the person stopped it first. */
export interface PushFollowed {
  id: string;
  contextId: string;
  state: TaskState;
  stopped: boolean;
}

/**
 * A task followed by the agent's pushes, A2A's third way (v1.0 §4.3.3): the task read (its thread
 * names the credential), the thread's checked pushes listened to, a push config created on the task
 * with the receiver's target (its own id, so another watcher's config is left alone), the task read
 * again and shown (what happened before the config), then each push of this task as it comes, until
 * one says the task settled (terminal, or waiting for input or auth). A `GetTask` every
 * `checkEveryMs` shows the task when it moved without a push telling it. The config is deleted at the
 * end, stopped or not. A task already settled is shown once, and no config is made.
 */
export async function followByPush(follow: PushFollow): Promise<PushFollowed> {
  const { port, taskId, source, show } = follow;
  const bounded = <T>(call: Observable<T>, operation: 'get-task' | 'push-config'): Promise<T> =>
    lastValueFrom(call.pipe(within<T>(follow.requestTimeoutMs, 'poll-request', operation)));
  const first = await bounded(port.getTask(taskId), 'get-task');
  let state: TaskState = first.status.state;
  const contextId = first.contextId ?? '';
  const ended = (stopped: boolean): PushFollowed => ({ id: taskId, contextId, state, stopped });
  if (isSettled(state)) {
    show({ kind: 'task', task: first });
    return ended(false);
  }
  if (contextId === '') {
    throw new A2AError({
      kind: 'unsupported',
      operation: 'push-config',
      message: `task ${taskId} names no contextId: a push credential names the task's conversation`,
    });
  }
  // A stop is remembered: one that comes while a call is in flight ends the follow when the call answers.
  let stopped = false;
  const stop$ = new ReplaySubject<void>(1);
  // Listened to before the config exists: a push posted before the next GetTask answers is held, not lost.
  const held = new ReplaySubject<AgentEvent>(MAX_HELD);
  const listening = source
    .events(contextId)
    .pipe(filter((event) => taskIdOf(event) === taskId))
    .subscribe(held);
  const stopping = follow.stop$.subscribe(() => {
    stopped = true;
    stop$.next();
  });
  let configId: string;
  try {
    const target = await firstValueFrom(source.target(contextId));
    configId = `${target.id}-${randomUUID().slice(0, 8)}`;
    follow.ownConfig?.(configId);
    const url = new URL(target.url);
    url.searchParams.set(CONFIG_PARAM, configId);
    await bounded(
      port.createPushConfig({
        id: configId,
        taskId,
        url: url.href,
        token: target.token,
        authentication: { scheme: 'Bearer', credentials: target.token },
      }),
      'push-config',
    );
  } catch (error) {
    listening.unsubscribe();
    stopping.unsubscribe();
    throw error;
  }
  try {
    if (stopped) return ended(true);
    const now = await bounded(port.getTask(taskId), 'get-task');
    state = now.status.state;
    show({ kind: 'task', task: now });
    if (isSettled(state) || stopped) return ended(stopped);
    const every = follow.checkEveryMs ?? PUSH_CHECK_MS;
    // A check shows the task only when it says what no push said: the task moved on its own.
    const checks$ = timer(every, every).pipe(
      exhaustMap(() =>
        port.getTask(taskId).pipe(
          within<Task>(follow.requestTimeoutMs, 'poll-request', 'get-task'),
          catchError((error: unknown) => (isA2AError(error, 'task-not-found') ? throwError(() => error) : EMPTY)),
        ),
      ),
      filter((task) => task.status.state !== state),
      map((task): AgentEvent => ({ kind: 'task', task })),
    );
    await lastValueFrom(
      merge(held, checks$).pipe(
        takeUntil(stop$),
        tap((event) => {
          state = stateOf(event) ?? state;
          show(event);
        }),
        takeWhile(() => !isSettled(state), true),
      ),
      { defaultValue: undefined },
    );
    return ended(stopped);
  } finally {
    listening.unsubscribe();
    stopping.unsubscribe();
    await bounded(port.deletePushConfig(taskId, configId), 'push-config').catch((error: unknown) => follow.leftConfig(configId, error));
  }
}

/** The task an event is about. */
function taskIdOf(event: AgentEvent): string | undefined {
  if (event.kind === 'task') return event.task.id;
  if (event.kind === 'status' || event.kind === 'artifact') return event.taskId;
  if (event.kind === 'message') return event.message.taskId;
  return undefined;
}

/** The task's state as an event says it, when it does. */
function stateOf(event: AgentEvent): TaskState | undefined {
  if (event.kind === 'task') return event.task.status.state;
  if (event.kind === 'status') return event.status.state;
  return undefined;
}
