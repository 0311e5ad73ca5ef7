import type { Observable } from 'rxjs';
import {
  A2AError,
  type AgentEvent,
  type Attachment,
  type EndEvent,
  isInterrupted,
  protocolSendResponse,
  type SendResult,
  type Task,
  type TaskState,
  type TurnEvent,
  type TurnOutcome,
} from '../../../node/index.js';
import { mkdir } from 'node:fs/promises';
import { saveAttachments } from '../../turns/attachments.js';
import { foldTask, HeardMessages, taskOfUpdate } from './fold.js';
import type { DeliveryPort } from './ports.js';
import { notice, type Io } from '../../core/io.js';
import { reportFailure, writeRecord, type OutputMode } from '../../output/output.js';
import { finalRecord, printEvent, printResult, warnOutcome, warnReplyMissing } from '../../output/print.js';
import { sendRecord } from '../../output/text.js';
import { withUsage } from '../../output/usage-text.js';
import { followCommand, shellQuote } from '../../output/shell-quote.js';
import { terminalLine } from '../../output/terminal-text.js';
import { startTurn, watchTurn } from '../../turns/turn-runner.js';
import type { AuthWait } from './auth-wait.js';
import { leftNote, TurnTrail, type SentTo } from '../../turns/left-turn.js';

/** The task state a turn's outcome stands for. */
const STATE_OF: Partial<Record<TurnOutcome, TaskState>> = {
  completed: 'completed',
  failed: 'failed',
  rejected: 'rejected',
  canceled: 'canceled',
  'input-required': 'input-required',
  'auth-required': 'auth-required',
};

/** How the send is shown: its output mode, the agent (for hints), the command that answers a waiting task. */
export interface ProtocolReport {
  mode: OutputMode;
  agent: string;
  /** Where the agent's files go (`--save`), when given. */
  save?: string;
  /** An error's causes too (`--verbose`). */
  verbose?: boolean;
  /**
   * Reads a task as the agent has it (GetTask), for the terminal object of a streamed turn without
   * `--stream`; with `historyLength`, its last messages too (those the stream told of, when they carried metadata).
   */
  reread?: (taskId: string, historyLength?: number) => Promise<Task>;
  /** The wait at AUTH_REQUIRED: its notices, and the error of a `--timeout` or Ctrl-C during it. */
  authWait?: AuthWait;
  /** The thread the message went on (`--thread`, `--handle`): a cancel's note names the command that looks for it. */
  thread?: SentTo['thread'];
  /** What the turn's port saw: the card it read, whether the message left (a {@link DeliveryPort}). */
  port?: Pick<DeliveryPort, 'seen' | 'went'>;
}

/**
 * Runs a send's turn and prints the agent's objects as the A2A CLI specification asks (§9): without
 * `--stream`, the terminal object once (`-o json`: the `SendMessageResponse`; `text`: its record); with
 * it, each `StreamResponse` as it arrives (a JSON line, or a record, the last one restating the task's
 * ids and state). The exit status says whether the command did its job (§9.6): 0 whatever the task's
 * outcome (a failed or waiting task is named on stderr, with the command that answers a waiting one),
 * else the error's (the envelope on stdout under `-o json`). `turn` is given the listener of the
 * agent's objects (the ladder's `onAgentEvent`).
 */
export async function reportProtocolTurn(
  io: Io,
  turn: (onAgentEvent: (event: AgentEvent) => void) => Observable<TurnEvent>,
  report: ProtocolReport,
): Promise<number> {
  const { mode } = report;
  let last: SendResult | undefined;
  let end: EndEvent | undefined;
  let taskId: string | undefined;
  // After the turn settled nothing more is printed: a read left in the background (to cancel a task
  // named late) still hears the agent, but the command's output ended with its result or its error.
  let settled = false;
  // Without --stream: the last snapshot, and whether stream updates came after it (then it is read again).
  let updated = false;
  const messages = new HeardMessages();
  const heard = (event: AgentEvent): void => {
    if (settled) return;
    if (mode.stream) printEvent(io, mode, event);
    messages.see(event);
    if (event.kind === 'task' || event.kind === 'message') {
      last = event;
      updated = false;
    } else if (last?.kind === 'task') {
      last = { kind: 'task', task: foldTask(last.task, event) };
      updated = true;
    } else if (last === undefined) {
      // A stream that never sends the task: its updates make it up, and it is read again at the end.
      const task = taskOfUpdate(event);
      if (task !== undefined) {
        last = { kind: 'task', task };
        updated = true;
      }
    }
  };
  const trail = new TurnTrail();
  const running = startTurn(turn(heard), (event) => {
    report.authWait?.see(event);
    trail.see(event);
    if (event.type === 'end') end = event;
    else if (event.type === 'task') taskId = event.taskId;
  });
  // Ctrl-C cancels the turn; so does a closed stdout (`| head -1`), and the command then ends quietly, 0.
  const watch = watchTurn(io, running);
  try {
    const result = await running.result;
    settled = true;
    const context = { command: 'send', agent: report.agent, verbose: report.verbose === true, ...(taskId === undefined ? {} : { taskId }) };
    const expired = end === undefined ? undefined : report.authWait?.expired(end);
    if (expired !== undefined) return reportFailure(io, mode, expired, context);
    if ('outcome' in result && end !== undefined) {
      if (report.save !== undefined && end.attachments?.length) await saveAll(io, report.save, end.attachments);
      if (!mode.stream && updated && last?.kind === 'task') last = await reread(report, last, messages.historyLength());
      return ended(io, report, end, last);
    }
    if (watch.outClosed()) return 0;
    // A cancel or a timeout left the turn: what became of the task (CancelTask, or nothing to cancel yet) is said as it is.
    if (report.port !== undefined) trail.messageWent = report.port.went;
    const note = leftNote(trail, { agent: report.agent, thread: report.thread });
    // Ctrl-C while the task waited for a sign-in: nothing was cancelled, and the wait says so itself.
    const stopped = 'cancelled' in result ? report.authWait?.stopped() : undefined;
    if (stopped !== undefined) return reportFailure(io, mode, stopped, context);
    const error =
      'cancelled' in result
        ? new A2AError({ kind: 'aborted', operation: 'turn', message: note.message })
        : (result as { error: unknown }).error;
    return reportFailure(io, mode, error, { ...context, left: note, card: report.port?.seen });
  } finally {
    watch.stop();
  }
}

/**
 * The task as the agent has it once the stream that told it ended (one GetTask): the terminal object of a
 * send without `--stream`, the agent's own rather than one put together from its updates, which stand in
 * when the read fails. `historyLength`: the messages of history it asks for (see {@link HeardMessages}).
 */
async function reread(report: ProtocolReport, folded: Extract<SendResult, { kind: 'task' }>, historyLength?: number): Promise<SendResult> {
  if (report.reread === undefined) return folded;
  try {
    return { kind: 'task', task: await report.reread(folded.task.id, historyLength) };
  } catch {
    return folded;
  }
}

/** Writes the answer's files and data parts into `dir` (`--save`), each path on stderr. */
async function saveAll(io: Io, dir: string, attachments: Attachment[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const path of await saveAttachments(dir, attachments)) notice(io, `saved ${path}`);
}

/** The turn's end: the terminal object (or, streamed as text, the closing record), the outcome's warning; 0. */
function ended(io: Io, report: ProtocolReport, end: EndEvent, last: SendResult | undefined): number {
  const { mode } = report;
  const state = STATE_OF[end.outcome];
  // The text record's last field is the turn's usage, when the agent reported any (-o json: the agent's objects as sent).
  if (!mode.stream && last !== undefined) printResult(io, mode, protocolSendResponse(last), withUsage(sendRecord(last), end.usage));
  else if (mode.format === 'text' && end.taskId !== undefined && state !== undefined) {
    const ids = { id: end.taskId, ...(end.contextId === undefined ? {} : { contextId: end.contextId }), state };
    writeRecord(io, withUsage(finalRecord(ids), end.usage));
  }
  if (state === undefined) return 0;
  warnOutcome(io, state, last?.kind === 'task' ? last.task.status : undefined);
  warnReplyMissing(io, end);
  // At AUTH_REQUIRED here the agent closed its stream (or has none) and the task still waits: the user signs in, then follows it.
  if (state === 'auth-required' && end.taskId !== undefined)
    notice(io, `sign in as the agent asked, then follow it with: ${terminalLine(followCommand(end.taskId, report.agent))}`);
  else if (isInterrupted(state) && end.taskId !== undefined)
    notice(io, `answer it with: ${terminalLine(resumeCommand(report.agent, end.taskId))}`);
  return 0;
}

/** The command that answers a task waiting for the caller (§6.3): copy it, put the answer in. */
export function resumeCommand(agent: string, taskId: string): string {
  return `a4h send ${shellQuote(agent)} --task-id ${shellQuote(taskId)} --text '<your answer>'`;
}
