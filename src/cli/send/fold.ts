import type { AgentEvent, Artifact, Task } from '../../node/index.js';

/**
 * A task snapshot with the stream's later updates applied: the status replaced, an artifact chunk
 * appended to its artifact (`append`) or put in its place. What a send without `--stream` prints when
 * the agent's own last snapshot (a GetTask after the stream) cannot be had.
 */
export function foldTask(task: Task, event: AgentEvent): Task {
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
