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
