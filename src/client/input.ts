import { A2AError } from '../errors.js';
import { cardUrlOf } from '../port/card-url.js';
import { checkExtensionUris } from '../port/extensions.js';
import { checkIds, checkRequest } from '../turn/turn.js';
import type { ResumeInput, TurnInput } from './types.js';

/**
 * The whole input, checked once before any I/O: the message (as the ladder checks it), the agent URL,
 * the thread's names. Returns the agent's card URL, which keys the thread: `http://h` and `http://h/`
 * are one agent, so one thread.
 */
export function checkInput(input: TurnInput, maxAttachmentBytes?: number): string {
  checkRequest(
    {
      text: input.text,
      ...(input.contextId === undefined ? {} : { contextId: input.contextId }),
      ...(input.taskId === undefined ? {} : { taskId: input.taskId }),
      ...(input.files === undefined ? {} : { files: input.files }),
      ...(input.data === undefined ? {} : { data: input.data }),
    },
    maxAttachmentBytes,
  );
  const cardUrl = cardUrlOf(input.agent);
  checkNames(input);
  checkLeave(input);
  checkExtensions(input);
  return cardUrl;
}

/** A resume's input, checked once before any I/O: the agent URL, the thread's names, the ids. Returns the agent's card URL. */
export function checkResumeInput(input: ResumeInput): string {
  const cardUrl = cardUrlOf(input.agent);
  checkNames(input);
  checkIds(input);
  checkLeave(input);
  checkExtensions(input);
  const from = input.from;
  if (
    from !== undefined &&
    (typeof from.taskId !== 'string' || from.taskId === '' || !Number.isSafeInteger(from.delivered) || from.delivered < 0)
  ) {
    throw new A2AError({
      kind: 'input',
      operation: 'turn',
      message: 'from must be a position: a task id and a count of characters delivered',
    });
  }
  return cardUrl;
}

function checkNames(input: { handle: unknown; thread: unknown }): void {
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
