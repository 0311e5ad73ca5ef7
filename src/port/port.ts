import { throwError, type Observable } from 'rxjs';
import { A2AError } from '../errors.js';
import type { CardSummary } from './card.js';
import type { AgentEvent, OutgoingMessage, SendResult, Task, TaskState } from './types.js';

/**
 * The ladder's only view of an agent: seven calls (`listTasks` optional), each a cold Observable bound to one agent.
 *
 * Nothing happens until a call is subscribed; each subscription is its own request with its own
 * `AbortController`, aborted when the subscription ends. Failures arrive as {@link A2AError}s
 * (`src/errors.ts`) with a kind the ladder reads. A port never retries by itself.
 */
export interface A2APort {
  /** The resolved card of the agent (cached by the adapter); one value, then complete. */
  card(): Observable<CardSummary>;
  /** A blocking `SendMessage`: one value (a task, maybe still working, or a message), then complete. */
  send(message: OutgoingMessage): Observable<SendResult>;
  /** `SendStreamingMessage`: the agent's events until the server closes the stream. */
  stream(message: OutgoingMessage): Observable<AgentEvent>;
  /** `SubscribeToTask` (v0.3 `tasks/resubscribe`): a task snapshot first, then live events. */
  resubscribe(taskId: string): Observable<AgentEvent>;
  /**
   * `GetTask`: one task snapshot, then complete. `historyLength`: how many of the task's last messages
   * to ask for; by default the fewest the agent's protocol allows (none on v1.0). `wait` (A2A 1.1 draft,
   * a long-poll): the agent holds the answer until the task passes that generation, or its own cap; a
   * port or an agent that cannot ask so answers at once.
   */
  getTask(taskId: string, historyLength?: number, wait?: GenerationWait): Observable<Task>;
  /** `CancelTask`: the task as the agent has it after the cancel, then complete. */
  cancel(taskId: string): Observable<Task>;
  /**
   * `ListTasks` (v1.0) of one conversation (or, with `contextId` `''`, of every one the agent lets
   * the caller see, as `a4h task list` asks): one page of its tasks, newest first as the agent orders
   * them, without artifacts unless `includeArtifacts` asks for them (and without history unless
   * `historyLength` asks for some), and the token of the next page, then complete. What the agent
   * lists is what it says: a caller checks each task's contextId (an agent may ignore the filter). A
   * port of an agent without it (v0.3) fails with an `unsupported` error; a port that leaves it out
   * is such a port.
   */
  listTasks?(contextId: string, options?: ListTasksOptions): Observable<TaskPage>;
}

/** A2A 1.1 (draft): a `GetTask` held until the task's generation passes `currentGeneration`. */
export interface GenerationWait {
  /** The last generation the caller saw. */
  currentGeneration: number;
}

/** Bounds of one `ListTasks` page. */
export interface ListTasksOptions {
  /** Only tasks whose status changed at or after this time (ISO 8601). */
  statusTimestampAfter?: string;
  /** At most this many tasks (1–100; the agent's default when absent). */
  pageSize?: number;
  /** The page after the one that gave this token (its `nextPageToken`); the first page when absent. */
  pageToken?: string;
  /** The most recent messages of each task's history to include; none when absent. */
  historyLength?: number;
  /** Include each task's artifacts (its reply, its files); left out when absent or false. */
  includeArtifacts?: boolean;
  /** Only tasks in this state (`unknown` asks for no filter); every state when absent. */
  status?: TaskState;
}

/** One page of a `ListTasks` answer. */
export interface TaskPage {
  /** The tasks of the page, in the agent's order. */
  tasks: Task[];
  /** The token of the next page; absent (or empty) on the last page. */
  nextPageToken?: string;
}

/** Whom a port's calls are for: the person (`handle`) and conversation (`thread`) of a turn. */
export interface Caller {
  /** The turn's agent handle. */
  readonly handle: string;
  /** The turn's conversation key. */
  readonly thread: string;
}

/** What one turn adds to its port's calls. */
export interface PortTurn {
  /** Headers on each of the port's calls but the card's (the turn's trace context, with telemetry). */
  headers?: Readonly<Record<string, string>>;
  /**
   * Extension URIs each of the port's calls but the card's activates (`A2A-Extensions`), besides the
   * ones the port factory activates for the agent. Checked by the caller (the client checks a turn's).
   */
  extensions?: readonly string[];
  /** Whom each of the port's calls but the card's is for: the credentials are made for them (a credentials function hears it). */
  caller?: Caller;
}

/** Makes the port of one agent, from its base URL or card URL (and, per turn, the turn's headers and extensions). */
export type PortFactory = (agent: string, turn?: PortTurn) => A2APort;

/** `port.listTasks`, or an `unsupported` error for a port that has none. */
export function listTasksOf(port: A2APort, contextId: string, options?: ListTasksOptions): Observable<TaskPage> {
  if (port.listTasks === undefined) {
    return throwError(() => new A2AError({ kind: 'unsupported', operation: 'list-tasks', message: 'the port has no ListTasks' }));
  }
  return port.listTasks(contextId, options);
}
