import type { AgentEvent } from '../port/types.js';

/** The id of a receiver's push config at the agent: one per task, so asking again replaces it. */
export const PUSH_CONFIG_ID = 'a4h-push';

/**
 * What a receiver made of one request: `taken` (204, handed to the thread's turns, or unclaimed when
 * none follows it), `duplicate` (204: the same push taken before; nothing shown again), or a refusal:
 * `method` (405), `no-credential` / `bad-credential` (401), `flood` (429), `media-type` (415), `busy`
 * (503), `too-large` (413), `malformed` (400), `other-thread` (403: the task is not of the thread the
 * credential names). `unclaimed` counts the taken pushes no turn followed.
 */
export type PushOutcome =
  | 'taken'
  | 'unclaimed'
  | 'duplicate'
  | 'method'
  | 'no-credential'
  | 'bad-credential'
  | 'flood'
  | 'media-type'
  | 'busy'
  | 'too-large'
  | 'malformed'
  | 'other-thread';

/** The thread and task a push is about, or undefined when it names no task or no thread. */
export function eventIds(event: AgentEvent): { contextId: string; taskId: string } | undefined {
  let contextId: string | undefined;
  let taskId: string | undefined;
  if (event.kind === 'task') ({ id: taskId, contextId } = event.task);
  else if (event.kind === 'message') ({ taskId, contextId } = event.message);
  else if (event.kind === 'status' || event.kind === 'artifact') ({ taskId, contextId } = event);
  return contextId && taskId ? { contextId, taskId } : undefined;
}
