import { A2AError } from '../errors.js';
import { cardUrlOf } from '../port/card-url.js';
import { checkExtensionUris } from '../port/extensions.js';
import { callerIdProblem, checkCallerIds, checkRequest } from '../turn/request.js';
import { surfaceAgentOf } from './surface-origin.js';
import type { CancelInput, HistoryInput, ResumeInput, TurnInput } from './types.js';

/**
 * The whole input, checked once before any I/O: the message (as the ladder checks it), the agent URL,
 * the thread's names. Returns the agent's card URL, which keys the thread: `http://h` and `http://h/`
 * are one agent, so one thread.
 */
export function checkInput(input: TurnInput, maxAttachmentBytes?: number): string {
  checkRequest(input, maxAttachmentBytes);
  const cardUrl = cardUrlOf(input.agent);
  checkNames(input);
  checkLeave(input);
  checkExtensions(input);
  checkActsOn(input, cardUrl);
  return cardUrl;
}

/**
 * An action on a surface goes to the agent that drew it, and to no other: its data model is that
 * agent's, and another agent would take the action as its own surface's (or a person's words).
 */
function checkActsOn(input: TurnInput, cardUrl: string): void {
  const on = input.actsOn;
  if (on === undefined) return;
  const refuse = (message: string) => new A2AError({ kind: 'input', operation: 'turn', message });
  if (on === null || typeof on !== 'object' || typeof on.agent !== 'string' || typeof on.surfaceId !== 'string') {
    throw refuse('actsOn names the surface an action is on and its agent (strings, as surfaceAction gives them)');
  }
  if (on.agent !== surfaceAgentOf(cardUrl)) {
    throw refuse(
      `the action is on the surface ${JSON.stringify(on.surfaceId).slice(0, 80)}, which another agent drew: it goes only to that agent; nothing was sent`,
    );
  }
}

/** A resume on a thread: its handle and conversation key are given. */
export type ThreadResumeInput = ResumeInput & { handle: string; thread: string };

/** Whether a (checked) resume names its thread; one that does not follows a task the caller vouches for. */
export function onThread(input: ResumeInput): input is ThreadResumeInput {
  return input.thread !== undefined;
}

/**
 * A resume's input, checked once before any I/O: the agent URL, the thread's names (both, or
 * neither with a task to follow), the ids (bounded as the agent's are), the position. Returns the
 * agent's card URL.
 */
export function checkResumeInput(input: ResumeInput): string {
  const cardUrl = cardUrlOf(input.agent);
  const refuse = (message: string) => new A2AError({ kind: 'input', operation: 'turn', message });
  const threadless = input.handle === undefined && input.thread === undefined;
  if (!threadless) checkNames(input);
  checkCallerIds(input);
  checkLeave(input);
  checkExtensions(input);
  const from = input.from;
  if (from !== undefined) {
    const why = callerIdProblem(from.taskId);
    if (why !== undefined || !Number.isSafeInteger(from.delivered) || from.delivered < 0) {
      throw refuse(`from must be a position: a task id and a count of characters delivered${why ? ` (its taskId ${why})` : ''}`);
    }
  }
  if (input.messageId !== undefined && (input.taskId !== undefined || from !== undefined)) {
    throw refuse('messageId finds the task that carries the message: give it without taskId or from');
  }
  if (input.sentAt !== undefined) {
    if (input.messageId === undefined) throw refuse('sentAt goes with messageId: when that message was sent');
    if (typeof input.sentAt !== 'number' || !Number.isSafeInteger(input.sentAt) || input.sentAt < 0) {
      throw refuse('sentAt must be a time in milliseconds since the epoch (Date.now() when the message was sent)');
    }
  }
  if (threadless && input.taskId === undefined && from === undefined) {
    throw refuse('a resume without a thread follows a task: give taskId or from (or the handle and thread)');
  }
  return cardUrl;
}

/**
 * A history's input, checked once before any I/O: the agent URL, the thread's names, a given
 * contextId (bounded as the agent's ids are), the extensions. Returns the agent's card URL. The
 * page's own options (limit, before, maxBytes) are checked where they are read.
 */
export function checkHistoryInput(input: HistoryInput): string {
  const cardUrl = cardUrlOf(input.agent);
  checkNames(input);
  checkCallerIds({ contextId: input.contextId });
  checkExtensions(input);
  return cardUrl;
}

/**
 * A cancel's input, checked once before any I/O: the agent URL, the task id (required, bounded), the
 * thread's names (both, or neither: the caller vouches), the ids, the extensions. Returns the card URL.
 */
export function checkCancelInput(input: CancelInput): string {
  const cardUrl = cardUrlOf(input.agent);
  if (input.taskId === undefined) throw new A2AError({ kind: 'input', operation: 'cancel', message: 'taskId must be a non-empty string' });
  if (input.handle !== undefined || input.thread !== undefined) checkNames(input);
  checkCallerIds(input);
  checkExtensions(input);
  return cardUrl;
}

function checkNames(input: { handle?: unknown; thread?: unknown }): void {
  for (const field of ['handle', 'thread'] as const) {
    const value = input[field];
    if (typeof value !== 'string' || value === '') {
      throw new A2AError({ kind: 'input', operation: 'turn', message: `the ${field} must be a non-empty string` });
    }
  }
}

function checkLeave(input: { onLeave?: unknown }): void {
  if (input.onLeave === undefined || input.onLeave === 'cancel' || input.onLeave === 'detach') return;
  throw new A2AError({ kind: 'input', operation: 'turn', message: "onLeave must be 'cancel' or 'detach'" });
}

function checkExtensions(input: { extensions?: unknown }): void {
  if (input.extensions !== undefined) checkExtensionUris(input.extensions, 'extensions', 'input', 'turn');
}

/** The agent's card URL, or undefined when `agent` is not a usable URL. */
export function agentKey(agent: string): string | undefined {
  try {
    return cardUrlOf(agent);
  } catch {
    return undefined;
  }
}
