import type { A2AError } from '../errors.js';
import type { EndEvent, Interrupt, ReplyMissing, TurnOutcome } from '../port/events.js';
import type { AgentMessage, Elicitation, TaskState } from '../port/types.js';
import type { Usage } from '../port/usage.js';
import type { SurfaceView } from '../port/a2ui.js';
import { agentText } from './parts.js';

/** What the end's facts read of the turn's task (the renderer's `EndTask` has it all). */
interface EndTask {
  readonly taskId: string | undefined;
  readonly contextId: string | undefined;
  readonly messageOnly: boolean;
  readonly replyUnread?: A2AError | undefined;
  readonly generation?: number | undefined;
  readonly elicitations?: Elicitation[] | undefined;
}

/** What the renderer saw that the end's facts depend on. */
export interface EndSeen {
  /** The status message of the interruption the task ended in (its question), when it came with one. */
  asked: AgentMessage | undefined;
  /** An artifact came (an update, or one a snapshot lists), whatever it held. */
  artifactsSeen: boolean;
  /** The turn's A2UI surfaces, when it drew any. */
  surfaces: SurfaceView[] | undefined;
  /** The turn's usage as the agent reported it, when it reported any. */
  usage: Usage | undefined;
}

/**
 * What the end of a turn says of its task beyond the reply (`end` changed in place): the generation
 * (A2A 1.1 draft), the A2UI surfaces drawn, the usage reported; on an empty `completed` reply (no text, attachment or surface), why the agent's answer may be missing; on an
 * `input-required` or `auth-required` end of a task, the {@link Interrupt}.
 */
export function endFacts(end: EndEvent, task: EndTask, seen: EndSeen): void {
  if (seen.surfaces !== undefined) end.surfaces = seen.surfaces;
  if (seen.usage !== undefined) end.usage = seen.usage;
  if (task.generation !== undefined) end.generation = task.generation;
  const empty = end.text === '' && (end.attachments?.length ?? 0) === 0 && end.surfaces === undefined;
  if (end.outcome === 'completed' && !task.messageOnly && empty) {
    const missing = replyMissing(task, seen.artifactsSeen);
    if (missing !== undefined) end.replyMissing = missing;
  }
  const interrupt = interruptOf(end, task, seen.asked);
  if (interrupt !== undefined) end.interrupt = interrupt;
}

/** Why an empty completed reply may not be the agent's whole answer: it was not read, or its artifacts held nothing. */
function replyMissing(task: EndTask, artifactsSeen: boolean): ReplyMissing | undefined {
  const cause = task.replyUnread;
  if (cause !== undefined) return { reason: 'unread', cause };
  return artifactsSeen ? { reason: 'artifacts-empty' } : undefined;
}

/**
 * The interrupt of an `input-required` or `auth-required` end of a task: the question's text (that of
 * `asked`, the status message it came with, else the reply's), the message, the task's requests for
 * input and its generation, each when known.
 */
function interruptOf(end: EndEvent, task: EndTask, asked: AgentMessage | undefined): Interrupt | undefined {
  if ((end.outcome !== 'input-required' && end.outcome !== 'auth-required') || task.taskId === undefined) return undefined;
  const question = asked?.role === 'agent' ? asked : undefined;
  const interrupt: Interrupt = {
    kind: end.outcome === 'auth-required' ? 'auth' : 'input',
    taskId: task.taskId,
    text: agentText(question) ?? end.text,
  };
  if (task.contextId !== undefined) interrupt.contextId = task.contextId;
  if (question !== undefined) interrupt.message = question;
  if (task.elicitations !== undefined) interrupt.elicitations = task.elicitations.map((e) => ({ ...e }));
  if (task.generation !== undefined) interrupt.generation = task.generation;
  return interrupt;
}

/** The outcome of a turn whose task ended in `state` (a message-only answer completed); undefined while it is not settled. */
export function outcomeOf(state: TaskState | undefined, messageOnly: boolean): TurnOutcome | undefined {
  switch (state) {
    case 'completed':
    case 'input-required':
    case 'auth-required':
    case 'failed':
    case 'rejected':
    case 'canceled':
      return state;
    default:
      return messageOnly ? 'completed' : undefined;
  }
}
