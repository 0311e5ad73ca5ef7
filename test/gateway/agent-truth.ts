/**
 * What the agent itself holds for a conversation, read with the raw SDK client (not through the
 * library under test): its tasks, their states, and the reply text each one's artifacts carry.
 */
import { TaskState, type ListTasksRequest, type Task } from '@a2a-js/sdk';
import { connectUrl } from '../../fixtures/sdk-client.js';

/** One task of the conversation, as the agent has it. */
export interface AgentTask {
  id: string;
  completed: boolean;
  state: string;
  /** The text of its artifacts, concatenated in order. */
  reply: string;
}

const replyOf = (task: Task): string =>
  task.artifacts.flatMap((artifact) => artifact.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : ''))).join('');

/** Every task the agent has under `contextId`. */
export async function agentTasks(agentUrl: string, contextId: string): Promise<AgentTask[]> {
  const client = await connectUrl(agentUrl);
  const request: ListTasksRequest = {
    tenant: '',
    contextId,
    status: TaskState.TASK_STATE_UNSPECIFIED,
    pageSize: 100,
    pageToken: '',
    historyLength: 0,
    statusTimestampAfter: undefined,
    includeArtifacts: true,
  };
  const page = await client.listTasks(request);
  return page.tasks.map((task) => ({
    id: task.id,
    state: TaskState[task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED] ?? String(task.status?.state),
    completed: task.status?.state === TaskState.TASK_STATE_COMPLETED,
    reply: replyOf(task),
  }));
}
