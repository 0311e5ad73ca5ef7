import { mkdir } from 'node:fs/promises';
import type { Observable } from 'rxjs';
import { type A2AError, type CardSummary, type EndEvent, isA2AError, type TurnEvent } from '../../node/index.js';
import { saveAttachments } from './attachments.js';
import { describeError, reportError } from '../core/errors.js';
import { exitStatusOf } from '../output/envelope.js';
import { notice, type Io } from '../core/io.js';
import { errorLine, eventLine } from '../output/json.js';
import { exitCodeFor } from '../core/options.js';
import { TurnPrinter } from './printer.js';
import { terminalLine } from '../output/terminal-text.js';
import { startTurn, watchTurn } from './turn-runner.js';
import { leftNote, TurnTrail, type SentTo } from './left-turn.js';
import { otherInterfaces } from '../output/ways-out.js';
import { warnReplyMissing } from '../output/print.js';

/** How a one-shot command shows its turn. */
export interface ReportOptions {
  /** One JSON object per event per line instead of the reply. */
  json: boolean;
  /** Where the agent's files go, when given. */
  save?: string;
  /** Error causes too. */
  verbose: boolean;
  /** The agent as the user named it, for the commands a cancel's note names. */
  agent?: string;
  /** The thread the message went on (`--thread`, `--handle`), when it went on one. */
  thread?: SentTo['thread'];
  /** What the turn's port saw: the card it read, whether the message left (`send`'s DeliveryPort). */
  port?: { seen: CardSummary | undefined; went: boolean };
  /** What the command adds while the turn runs and at its end (`send`'s wait at AUTH_REQUIRED). */
  watch?: TurnWatch;
}

/** A command's own view of its turn beside the report: it sees each event, and may end the command with an error of its own. */
export interface TurnWatch {
  /** Sees each event, before it is shown. */
  see(event: TurnEvent): void;
  /** At the turn's end: an error that ends the command instead of the outcome, if any. */
  expired(end: EndEvent): A2AError | undefined;
  /** After a cancel: the error to report instead of the cancel's own, when the task was left as it is. */
  stopped(): A2AError | undefined;
  /** The next step after one of these errors, if there is one. */
  hint(error: A2AError): string | null;
}

/**
 * Runs one turn (`send`'s or `resume`'s) to its end and shows it: the reply (or JSON lines), the
 * files saved, a cancel on SIGINT/SIGTERM or a closed stdout, the error. Resolves to the command's
 * exit status (0 when stdout was closed: the reader had what it wanted, as `yes | head` ends).
 */
export async function reportTurn(io: Io, turn$: Observable<TurnEvent>, options: ReportOptions): Promise<number> {
  const printer = new TurnPrinter(io);
  let end: EndEvent | undefined;
  const trail = new TurnTrail();
  const turn = startTurn(turn$, (event) => {
    options.watch?.see(event);
    trail.see(event);
    if (event.type === 'end') end = event;
    if (options.json) io.out.write(`${eventLine(event)}\n`);
    else printer.show(event);
  });
  // Ctrl-C cancels the turn; so does a closed stdout (`| head -1`), and the command then ends quietly, 0.
  const watching = watchTurn(io, turn);
  try {
    const result = await turn.result;
    const { watch } = options;
    const expired = end === undefined ? undefined : watch?.expired(end);
    if (watch !== undefined && expired !== undefined) {
      // The turn's events, its end included, are on stdout as they came: the error is on stderr and in the exit status.
      reportError(io, expired, options.verbose);
      const hint = watch.hint(expired);
      if (hint !== null) notice(io, io.style.dim(terminalLine(hint)));
      return exitStatusOf(expired);
    }
    if ('outcome' in result) {
      if (options.save !== undefined && end?.attachments?.length) {
        await mkdir(options.save, { recursive: true });
        for (const path of await saveAttachments(options.save, end.attachments)) notice(io, `saved ${path}`);
      }
      if (end !== undefined) warnReplyMissing(io, end);
      return exitCodeFor(result.outcome);
    }
    if (watching.outClosed()) return 0;
    printer.abandon(!options.json);
    const stopped = 'cancelled' in result ? watch?.stopped() : undefined;
    if (stopped !== undefined) {
      if (options.json) io.out.write(`${errorLine('aborted', stopped.message)}\n`);
      reportError(io, stopped, options.verbose);
      return exitStatusOf(stopped);
    }
    // What a cancel or a timeout left at the agent: CancelTask for a named task, else nothing to cancel (said as it is).
    if (options.port !== undefined) trail.messageWent = options.port.went;
    const note = leftNote(trail, { agent: options.agent ?? '<agent>', thread: options.thread });
    if ('cancelled' in result) {
      if (options.json) io.out.write(`${errorLine('aborted', note.message, undefined, note.hint ?? undefined)}\n`);
      notice(io, note.message);
      if (note.hint !== null) notice(io, io.style.dim(note.hint));
      return 1;
    }
    const { error } = result;
    const card = options.port?.seen;
    const hint =
      (isA2AError(error, 'network') && card !== undefined ? otherInterfaces(card) : undefined) ??
      (isA2AError(error, 'timeout') ? [note.message, note.hint].filter(Boolean).join('; ') : undefined);
    if (options.json) {
      const kind = (error as { kind?: unknown } | undefined)?.kind;
      io.out.write(`${errorLine(typeof kind === 'string' ? kind : 'error', describeError(error), error, hint)}\n`);
    }
    reportError(io, error, options.verbose, hint);
    return exitStatusOf(error);
  } finally {
    watching.stop();
  }
}
