import type { Interrupt } from '../port/events.js';
import type { OutgoingData, OutgoingFile, OutgoingPart } from '../port/types.js';
import type { TurnInput } from './inputs.js';

/** An answer to an agent's question: its text, or a message of its own (a form's values as a data part, files). */
export type InterruptReply =
  | string
  | {
      /** The answer's text; '' when it is only data or files. Default ''. */
      text?: string;
      /** Files the answer sends. */
      files?: readonly OutgoingFile[];
      /** Data parts the answer sends (a form's values, an approval as `{ approved: true }`). */
      data?: readonly OutgoingData[];
      /** The answer's parts in an order of their own (see `OutgoingMessage.parts`). */
      parts?: readonly OutgoingPart[];
      /** The agent's requests it answers; default every one still open (`blocked` or `waiting`). */
      elicitationIds?: readonly string[];
    };

/** What {@link answerTo} gives: the fields of the thread's next `turn` that answer an interrupt. */
export type InterruptAnswer = Pick<TurnInput, 'text' | 'files' | 'data' | 'parts' | 'taskId' | 'ifGenerationMatch' | 'elicitationIds'>;

/**
 * The answer to an interrupted turn's question, by value: spread it into the thread's next turn
 * (`a2a.turn({ agent, handle, thread, ...answerTo(end.interrupt, 'yes') })`). It continues the
 * interrupt's task (checked to be the thread's, as any `taskId`), names the requests it answers
 * (`elicitationIds`, the open ones unless the reply names its own) and, when the agent keeps
 * generations (A2A 1.1 draft), goes only while the task is still at the question's generation
 * (`ifGenerationMatch`): a second answer to the same question, from another tab, another replica or
 * a retry, is refused as a `conflict` error, and the agent gets one answer. Against a 1.0 or 0.3
 * agent the answer is an ordinary message on the task, and a second one is not refused.
 */
export function answerTo(interrupt: Interrupt, reply: InterruptReply): InterruptAnswer {
  const given = typeof reply === 'string' ? { text: reply } : reply;
  const answer: InterruptAnswer = { text: given.text ?? '', taskId: interrupt.taskId };
  if (given.files !== undefined) answer.files = given.files;
  if (given.data !== undefined) answer.data = given.data;
  if (given.parts !== undefined) answer.parts = given.parts;
  const open = interrupt.elicitations?.filter((e) => e.state === 'blocked' || e.state === 'waiting').map((e) => e.id);
  const ids = given.elicitationIds ?? open;
  if (ids !== undefined && ids.length > 0) answer.elicitationIds = [...ids];
  if (interrupt.generation !== undefined && interrupt.generation >= 1) answer.ifGenerationMatch = interrupt.generation;
  return answer;
}
