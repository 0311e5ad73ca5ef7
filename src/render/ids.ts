import { A2AError } from '../errors.js';
import type { AgentEvent, AgentMessage } from '../port/types.js';

/**
 * The longest id the client keeps (a task's, a context's, an artifact's, a message's), in characters.
 * Real ids are UUIDs or a few dozen characters; the bound stops an agent from making the client hold
 * gigabytes through ids alone (the number of artifacts is bounded, their ids' length was not).
 */
export const MAX_ID_CHARS = 1024;

/** Which of the agent's ids: a task's, a context's, an artifact's or a message's. */
export type AgentIdField = 'task' | 'context' | 'artifact' | 'message';

/**
 * A control character: C0 (U+0000–U+001F: NUL, TAB, LF, CR…), DEL (U+007F) or C1 (U+0080–U+009F).
 * None belongs in an id, and an id goes into headers, URLs, logs, SSE fields and terminals, where a
 * line break or an escape starts something new.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Whether the client keeps `id` as an agent's id: at most {@link MAX_ID_CHARS} long, no control character. */
export function isKeptId(id: string): boolean {
  return id.length <= MAX_ID_CHARS && !CONTROL.test(id);
}

/**
 * Throws a `protocol` error (not retryable) when an id the agent sent is longer than
 * {@link MAX_ID_CHARS} or holds a control character. The message names the field, the length or the
 * first control character as a code point and its position; never the id itself.
 */
export function checkAgentId(id: string | undefined, what: AgentIdField): void {
  if (id === undefined) return;
  if (id.length > MAX_ID_CHARS) {
    throw new A2AError({
      kind: 'protocol',
      operation: 'turn',
      message: `the agent sent ${article(what)} ${what} id of ${id.length} characters, longer than the ${MAX_ID_CHARS} the client keeps`,
    });
  }
  const at = id.search(CONTROL);
  if (at === -1) return;
  const code = `U+${id.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0')}`;
  throw new A2AError({
    kind: 'protocol',
    operation: 'turn',
    message: `the agent sent ${article(what)} ${what} id holding a control character (${code} at character ${at + 1}); ids carry none`,
  });
}

/**
 * Throws a `protocol` error when an id the event carries is longer than {@link MAX_ID_CHARS} or holds a
 * control character ({@link checkAgentId}). The SDK's readers check each id as they read it; this
 * check holds for any port.
 */
export function checkIds(event: AgentEvent): void {
  switch (event.kind) {
    case 'task': {
      const { task } = event;
      checkAgentId(task.id, 'task');
      checkAgentId(task.contextId, 'context');
      messageIds(task.status.message);
      for (const artifact of task.artifacts) checkAgentId(artifact.artifactId, 'artifact');
      return;
    }
    case 'status':
      checkAgentId(event.taskId, 'task');
      checkAgentId(event.contextId, 'context');
      messageIds(event.status.message);
      return;
    case 'artifact':
      checkAgentId(event.taskId, 'task');
      checkAgentId(event.contextId, 'context');
      checkAgentId(event.artifact.artifactId, 'artifact');
      return;
    case 'message':
      messageIds(event.message);
      return;
    case 'alive':
  }
}

/** The ids of an agent's message: its own, its task's and its context's. */
export function messageIds(message: AgentMessage | undefined): void {
  if (message === undefined) return;
  checkAgentId(message.messageId, 'message');
  checkAgentId(message.taskId, 'task');
  checkAgentId(message.contextId, 'context');
}

const article = (what: AgentIdField): string => (what === 'artifact' ? 'an' : 'a');
