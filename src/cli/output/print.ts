import {
  type AgentEvent,
  type EndEvent,
  isInterrupted,
  type ProtocolJson,
  protocolStreamResponse,
  type Task,
  type TaskState,
  type TaskStatus,
  WIRE_STATES,
} from '../../node/index.js';
import { notice, type Io } from '../core/io.js';
import { writeDocument, writeJsonLine, writeRecord, type OutputMode, type TextRecord } from './output.js';
import { eventRecord } from './text.js';
import { terminalLine } from './terminal-text.js';

/**
 * Prints a command's one result (the specification's §9.2, §9.3): under `-o json` the protocol
 * object as one document (or, under `--stream`, as one JSON line: a single-line result is valid JSON
 * Lines), in `text` its record.
 */
export function printResult(io: Io, mode: OutputMode, json: ProtocolJson, record: TextRecord): void {
  if (mode.format === 'text') writeRecord(io, record);
  else if (mode.stream) writeJsonLine(io, json);
  else writeDocument(io, json);
}

/** Prints one event of a stream as it arrives: its `StreamResponse` as one JSON line, or its text record. Signs of life print nothing. */
export function printEvent(io: Io, mode: OutputMode, event: AgentEvent): void {
  if (mode.format === 'json') {
    const json = protocolStreamResponse(event);
    if (json !== undefined) writeJsonLine(io, json);
    return;
  }
  const record = eventRecord(event);
  if (record !== undefined) writeRecord(io, record);
}

/**
 * The closing record of a `text` stream (§9.2: the last record restates the task's ids and state):
 * `Task ID`, `Context ID`, `State`.
 */
export function finalRecord(task: Pick<Task, 'id' | 'contextId'> & { state: TaskState }): TextRecord {
  return {
    fields: [
      ['Task ID', task.id],
      ['Context ID', task.contextId],
      ['State', WIRE_STATES[task.state]],
    ],
  };
}

const ENDED_BADLY: ReadonlySet<TaskState> = new Set(['failed', 'rejected', 'canceled']);

/** The longest reason a warning quotes from the agent's status message; a longer one is cut with `…`. */
const REASON_CHARS = 300;

/**
 * The stderr warning for an outcome that is not a success (§9.6: the exit status stays 0, the state
 * says what happened): `the task ended TASK_STATE_FAILED: <the agent's reason>`, or `the task waits
 * for you: TASK_STATE_INPUT_REQUIRED`. The reason is the text of the task's status message, when the
 * agent gave one (on one line, at most 300 characters). Nothing for a completed task or one still in flight.
 */
export function warnOutcome(io: Io, state: TaskState, status?: TaskStatus): void {
  const reason = statusText(status);
  const why = reason === '' ? '' : `: ${reason.length > REASON_CHARS ? `${reason.slice(0, REASON_CHARS)}…` : reason}`;
  if (ENDED_BADLY.has(state)) notice(io, io.style.yellow(terminalLine(`the task ended ${WIRE_STATES[state]}${why}`)));
  else if (isInterrupted(state)) notice(io, io.style.yellow(`the task waits for you: ${WIRE_STATES[state]}`));
}

/**
 * The stderr warning of a completed end whose reply the turn did not get (its `replyMissing`): the
 * exit status stays 0 (§9.6: the turn was conducted and reported), but the end is no plain success.
 * Nothing for any other end.
 */
export function warnReplyMissing(io: Io, end: EndEvent): void {
  const missing = end.replyMissing;
  if (missing === undefined) return;
  const why =
    missing.reason === 'unread'
      ? `its reply could not be read${missing.cause ? `: ${missing.cause.message}` : ''}`
      : 'its artifacts held no reply';
  notice(io, io.style.yellow(terminalLine(`the task completed, but ${why}`)));
}

/** The text parts of a status message, joined on one line; empty when there are none. */
function statusText(status: TaskStatus | undefined): string {
  const parts = status?.message?.parts ?? [];
  return parts
    .flatMap((part) => (part.kind === 'text' ? [part.text] : []))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}
