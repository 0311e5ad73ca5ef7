/** Events of a fake port as a real agent sends them. */
import type { AgentEvent } from '../src/port/types.js';

/** `event` carrying the conversation's `contextId`, as a real agent's tasks and task events do (a message as is). */
export function withContext(event: AgentEvent, contextId: string): AgentEvent {
  return event.kind === 'task' ? { ...event, task: { ...event.task, contextId } } : 'taskId' in event ? { ...event, contextId } : event;
}
