import { A2AError, type EndEvent, type TurnEvent, WIRE_STATES } from '../../../node/index.js';
import { notice, type Io } from '../../core/io.js';
import { hintFor } from '../../output/hints.js';
import type { TurnWatch } from '../../turns/report-turn.js';
import { followCommand } from '../../output/shell-quote.js';
import { terminalLine } from '../../output/terminal-text.js';

/**
 * `send`'s wait at AUTH_REQUIRED (A2A 1.0 §7.6): the agent asked for a sign-in out of band and may go on
 * by itself once it has the credential, with no message from the client. While the agent keeps the task's
 * stream open the turn keeps listening (its auth wait is the whole `--timeout`, see `policyOf`), and this
 * says on stderr, at once, what the agent asked and that the command waits; then that the agent went on.
 * At the end it tells a wait that `--timeout` ended (the turn's `end` at auth-required once the deadline
 * passed) and a Ctrl-C during the wait from the other ends of a turn: in both the task is left as it is at
 * the agent (a task waiting for the user is not cancelled), and the error says so, with its id.
 */
export class AuthWait implements TurnWatch {
  private readonly startedAt: number;
  private taskId: string | undefined;
  private waiting = false;
  /** The "waiting" line, said once the turn goes on past the sign-in request (a blocking send's ends with it). */
  private said: NodeJS.Immediate | undefined;

  /** Made just before the turn is subscribed: the turn's deadline is `timeoutMs` after that. */
  constructor(
    private readonly io: Io,
    private readonly agent: string,
    private readonly timeoutMs: number,
  ) {
    this.startedAt = Date.now();
  }

  /** Sees each turn event: the sign-in request, and the agent going on after it. */
  see(event: TurnEvent): void {
    if (event.type === 'task') this.taskId = event.taskId;
    else if (event.type === 'end') clearImmediate(this.said);
    else if (event.type === 'auth-required') {
      this.waiting = true;
      const asked = event.text === undefined ? '(no link given)' : terminalLine(event.text);
      notice(this.io, this.io.style.yellow(`the agent needs you to sign in: ${asked}`));
      // A turn that ends here (a blocking send, no stream to wait on) ends in the same burst of events: then nothing is said of a wait.
      this.said = setImmediate(() =>
        notice(
          this.io,
          `${this.task()} waits for sign-in (${WIRE_STATES['auth-required']}); waiting for the agent to go on, until --timeout (${duration(this.timeoutMs)})`,
        ),
      );
    } else if (event.type === 'status') {
      const went = this.waiting && event.state !== 'auth-required';
      this.waiting = event.state === 'auth-required';
      if (went) notice(this.io, `the agent went on: ${WIRE_STATES[event.state]}`);
    }
  }

  /** The error that ends the command instead of `end`: `--timeout` ran out while the task waited for sign-in. */
  expired(end: EndEvent): A2AError | undefined {
    if (end.outcome !== 'auth-required' || !this.waiting || Date.now() - this.startedAt < this.timeoutMs) return undefined;
    return new A2AError({
      kind: 'timeout',
      phase: 'auth-wait',
      operation: 'turn',
      retryable: false,
      message: `--timeout (${duration(this.timeoutMs)}) ran out while ${this.task()} waited for sign-in (${WIRE_STATES['auth-required']}); it was not cancelled`,
    });
  }

  /** The error of a cancel (Ctrl-C) while the task waited for sign-in: nothing was cancelled; undefined otherwise. */
  stopped(): A2AError | undefined {
    if (!this.waiting) return undefined;
    const follow = this.taskId === undefined ? '' : `; follow it with: ${terminalLine(followCommand(this.taskId, this.agent))}`;
    return new A2AError({
      kind: 'aborted',
      operation: 'turn',
      retryable: false,
      message: `stopped waiting: ${this.task()} still waits for sign-in (${WIRE_STATES['auth-required']}), not cancelled${follow}`,
    });
  }

  /** The next step after {@link expired}'s error (the envelope's hint): sign in, then follow the task. */
  hint(error: A2AError): string | null {
    return hintFor(error, { command: 'send', agent: this.agent, ...(this.taskId === undefined ? {} : { taskId: this.taskId }) });
  }

  private task(): string {
    return this.taskId === undefined ? 'the task' : `task ${terminalLine(this.taskId)}`;
  }
}

/** A duration as a person reads it: `500 ms`, `2 s`, `1.5 s`, `30 min`. */
function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Math.round(ms / 100) / 10} s`;
}
