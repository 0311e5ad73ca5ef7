import type { AgentEvent, Artifact, Task } from '../../../node/index.js';

/**
 * A task snapshot with the stream's later updates applied: the status replaced, an artifact chunk
 * appended to its artifact (`append`) or put in its place. What a send without `--stream` prints when
 * the agent's own last snapshot (a GetTask after the stream) cannot be had.
 */
export function foldTask(task: Task, event: AgentEvent): Task {
  return foldInto(task, event);
}

/**
 * The task a stream's update tells of when no snapshot came before it (`@reactive-agents/a2a` 0.9.0
 * streams a status update and an artifact update, never the task): its ids, the update folded in
 * (a status, or an artifact under the state `unknown` until a status says more). Undefined for an
 * update that names no task.
 */
export function taskOfUpdate(event: AgentEvent): Task | undefined {
  if ((event.kind !== 'status' && event.kind !== 'artifact') || event.taskId === '') return undefined;
  const task: Task = { id: event.taskId, status: { state: 'unknown' }, artifacts: [] };
  if (event.contextId !== undefined) task.contextId = event.contextId;
  return foldInto(task, event);
}

function foldInto(task: Task, event: AgentEvent): Task {
  if (event.kind === 'task') return event.task;
  if (event.kind === 'status' && (event.taskId === '' || event.taskId === task.id)) return { ...task, status: event.status };
  if (event.kind !== 'artifact' || (event.taskId !== '' && event.taskId !== task.id)) return task;
  const chunk = event.artifact;
  const at = task.artifacts.findIndex((artifact) => artifact.artifactId === chunk.artifactId);
  const artifacts = [...task.artifacts];
  if (at < 0) artifacts.push(chunk);
  else artifacts[at] = event.append ? ({ ...artifacts[at]!, parts: [...artifacts[at]!.parts, ...chunk.parts] } satisfies Artifact) : chunk;
  return { ...task, artifacts };
}

/** The most messages of history a streamed send's terminal object asks for (GetTask's `historyLength`). */
export const HISTORY_BOUND = 100;

/**
 * The agent's messages a stream told of (its status updates'), for the terminal object read after it: when
 * one of them carried metadata (usage, as redpanda's and OpenRouter's agents report it on each message), the
 * GetTask asks for that many messages of history, so `-o json` shows them as the agent sent them; otherwise
 * none (historyLength 0, as every other call).
 */
export class HeardMessages {
  private count = 0;
  private withMetadata = false;

  /** Notes the message of a status update. */
  see(event: AgentEvent): void {
    if (event.kind !== 'status' || event.status.message === undefined) return;
    this.count++;
    if (event.status.message.metadata !== undefined && Object.keys(event.status.message.metadata).length > 0) this.withMetadata = true;
  }

  /** The history the terminal object asks for: the messages heard (bounded) when one carried metadata, else none. */
  historyLength(): number | undefined {
    return this.withMetadata ? Math.min(this.count, HISTORY_BOUND) : undefined;
  }
}
