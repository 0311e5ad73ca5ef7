import { A2AError } from '../errors.js';
import type { AgentEvent, AgentMessage } from '../port/types.js';

/**
 * The longest id the client keeps (a task's, a context's, an artifact's, a message's), in characters.
 * Real ids are UUIDs or a few dozen characters; the bound stops an agent from making the client hold
 * gigabytes through ids alone (the number of artifacts is bounded, their ids' length was not).
 */
export const MAX_ID_CHARS = 1024;

/** Throws a `protocol` error naming the bound when an id the event carries is longer than {@link MAX_ID_CHARS}. */
export function checkIds(event: AgentEvent): void {
  switch (event.kind) {
    case 'task': {
      const { task } = event;
      bounded(task.id, 'task');
      bounded(task.contextId, 'context');
      messageIds(task.status.message);
      for (const artifact of task.artifacts) bounded(artifact.artifactId, 'artifact');
      return;
    }
    case 'status':
      bounded(event.taskId, 'task');
      bounded(event.contextId, 'context');
      messageIds(event.status.message);
      return;
    case 'artifact':
      bounded(event.taskId, 'task');
      bounded(event.contextId, 'context');
      bounded(event.artifact.artifactId, 'artifact');
      return;
    case 'message':
      messageIds(event.message);
      return;
    case 'alive':
  }
}

function messageIds(message: AgentMessage | undefined): void {
  if (message === undefined) return;
  bounded(message.messageId, 'message');
  bounded(message.taskId, 'task');
  bounded(message.contextId, 'context');
}

function bounded(id: string | undefined, what: 'task' | 'context' | 'artifact' | 'message'): void {
  if (id === undefined || id.length <= MAX_ID_CHARS) return;
  throw new A2AError({
    kind: 'protocol',
    operation: 'turn',
    message: `the agent sent ${what === 'artifact' ? 'an' : 'a'} ${what} id of ${id.length} characters, longer than the ${MAX_ID_CHARS} the client keeps`,
  });
}
