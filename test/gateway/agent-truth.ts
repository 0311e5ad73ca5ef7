/**
 * What the agent itself holds for a conversation, read with the raw SDK client (not through the
 * library under test): its tasks, their states, the reply text each one's artifacts carry and the
 * user messages each one got; and a ledger of messages against it (lost, doubled, orphaned).
 */
import { Role, TaskState, type ListTasksRequest, type Task } from '@a2a-js/sdk';
import { expect } from 'vitest';
import type { Followed } from '../../examples/gateway/client-follow.mjs';
import { connectUrl } from '../../fixtures/sdk-client.js';

/** One task of the conversation, as the agent has it. */
export interface AgentTask {
  id: string;
  completed: boolean;
  state: string;
  /** The text of its artifacts, concatenated in order. */
  reply: string;
  /** The ids of the user messages in its history, in order. */
  messageIds: string[];
}

const replyOf = (task: Task): string =>
  task.artifacts.flatMap((artifact) => artifact.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : ''))).join('');

/** Every task the agent has under `contextId` (with their user messages' ids; their replies unless `replies` is false). */
export async function agentTasks(agentUrl: string, contextId: string, replies = true): Promise<AgentTask[]> {
  const client = await connectUrl(agentUrl);
  const tasks: Task[] = [];
  let pageToken = '';
  do {
    const request: ListTasksRequest = {
      tenant: '',
      contextId,
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageSize: 100,
      pageToken,
      historyLength: 100,
      statusTimestampAfter: undefined,
      includeArtifacts: replies,
    };
    const page = await client.listTasks(request);
    tasks.push(...page.tasks);
    pageToken = page.nextPageToken;
  } while (pageToken !== '');
  return tasks.map((task) => ({
    id: task.id,
    state: TaskState[task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED] ?? String(task.status?.state),
    completed: task.status?.state === TaskState.TASK_STATE_COMPLETED,
    reply: replyOf(task),
    messageIds: task.history.filter((message) => message.role === Role.ROLE_USER).map((message) => message.messageId),
  }));
}

/** Messages a client sent, counted against the agent's tasks. */
export interface Ledger {
  /** Messages sent (each once by its client, whatever the resends). */
  messages: number;
  /** Messages no task carries. */
  lost: string[];
  /** Messages more than one task (or one task twice) carries. */
  doubled: string[];
  /** Tasks that carry none of the messages, or that did not finish (completed or input-required). */
  orphaned: string[];
}

/** The ledger of `messageIds` (all of one conversation's messages) against the agent's `tasks` of it. */
export function ledger(messageIds: readonly string[], tasks: readonly AgentTask[]): Ledger {
  const carried = new Map<string, number>();
  for (const task of tasks) for (const id of task.messageIds) carried.set(id, (carried.get(id) ?? 0) + 1);
  const sent = new Set(messageIds);
  return {
    messages: messageIds.length,
    lost: messageIds.filter((id) => !carried.has(id)),
    doubled: messageIds.filter((id) => (carried.get(id) ?? 0) > 1),
    orphaned: tasks
      .filter(
        (task) =>
          !task.messageIds.some((id) => sent.has(id)) || !['TASK_STATE_COMPLETED', 'TASK_STATE_INPUT_REQUIRED'].includes(task.state),
      )
      .map((task) => task.id),
  };
}

/** The message was delivered once and its reply came whole, once: against the agent's own record of the conversation. */
export async function expectDeliveredOnce(agentUrl: string, contextId: string, followed: Followed): Promise<void> {
  expect(followed.error).toBeUndefined();
  expect(followed.end).toMatchObject({ outcome: 'completed' });
  expect(followed.reply).toBe(followed.end!.text);
  const tasks = await agentTasks(agentUrl, contextId);
  expect(ledger([followed.messageId!], tasks)).toEqual({ messages: 1, lost: [], doubled: [], orphaned: [] });
  expect(tasks.map((t) => ({ id: t.id, completed: t.completed, reply: t.reply }))).toEqual([
    { id: followed.end!.taskId, completed: true, reply: followed.reply },
  ]);
}
