import type { AgentEvent, AgentMessage, Artifact, Part, Task, TaskState } from '../port/types.js';
import type { CardSummary } from '../port/card.js';

/** A card summary for tests: streaming by default. */
export function testCard(overrides: Partial<CardSummary> = {}): CardSummary {
  return { name: 'test agent', streaming: true, protocolVersion: '1.0', transport: 'JSONRPC', url: 'http://127.0.0.1/', ...overrides };
}

const text = (value: string): Part => ({ kind: 'text', text: value });

/** An agent message with one text part. */
export function agentMessage(value: string, role: 'agent' | 'user' = 'agent'): AgentMessage {
  return { role, parts: [text(value)] };
}

/** A task snapshot. */
export function task(id: string, state: TaskState, extra: { message?: string; artifacts?: Artifact[]; contextId?: string } = {}): Task {
  const snapshot: Task = { id, status: { state }, artifacts: extra.artifacts ?? [] };
  if (extra.message !== undefined) snapshot.status.message = agentMessage(extra.message);
  if (extra.contextId !== undefined) snapshot.contextId = extra.contextId;
  return snapshot;
}

/** Builders for agent events, terse enough for marble value maps. */
export const ev = {
  task: (id: string, state: TaskState = 'submitted', extra: Parameters<typeof task>[2] = {}): Extract<AgentEvent, { kind: 'task' }> => ({
    kind: 'task',
    task: task(id, state, extra),
  }),
  status: (taskId: string, state: TaskState, message?: string, metadata?: Record<string, unknown>): AgentEvent => ({
    kind: 'status',
    taskId,
    status: message === undefined ? { state } : { state, message: agentMessage(message) },
    ...(metadata ? { metadata } : {}),
  }),
  artifact: (
    taskId: string,
    artifactId: string,
    value: string,
    flags: { append?: boolean; lastChunk?: boolean; metadata?: Record<string, unknown> } = {},
  ): AgentEvent => ({
    kind: 'artifact',
    taskId,
    artifact: { artifactId, parts: [text(value)], ...(flags.metadata ? { metadata: flags.metadata } : {}) },
    append: flags.append ?? false,
    lastChunk: flags.lastChunk ?? false,
  }),
  message: (value: string, role: 'agent' | 'user' = 'agent'): Extract<AgentEvent, { kind: 'message' }> => ({
    kind: 'message',
    message: agentMessage(value, role),
  }),
};
