import { createInterface, type Interface } from 'node:readline';
import { Subscription } from 'rxjs';
import type { A2AClient, TurnEvent } from '../../../node/index.js';
import { ChatFiles } from './files.js';
import { HeldHistory, pastExchanges } from './history.js';
import type { ChatSettings } from './settings.js';
import { CHAT_COMMANDS, readChatLine, unknownCommand, type ChatLine } from './lines.js';
import { ChatUsage } from './usage.js';
import { reportError } from '../../core/errors.js';
import { notice, onOutClosed, type Io } from '../../core/io.js';
import { isFailure } from '../../turns/outcome.js';
import { TurnPrinter } from '../../turns/printer.js';
import { startTurn, type RunningTurn, type TurnResult } from '../../turns/turn-runner.js';
import { leftNote, TurnTrail } from '../../turns/left-turn.js';
import { warnReplyMissing } from '../../output/print.js';

/** Where a chat stands: each state says what a new line, Ctrl-C and the end of a step do. */
type ChatState =
  /** The thread's last exchanges are being read (`--history`): lines wait; Ctrl-C leaves. */
  | { name: 'loading'; subscription: Subscription }
  /** Nothing runs: the next line is handled at once (on a terminal, the prompt shows); Ctrl-C leaves. */
  | { name: 'ready' }
  /** A turn runs (or the reply resumed at start): lines wait for it; Ctrl-C cancels it. */
  | { name: 'replying'; turn: RunningTurn }
  /** `/attach` reads or `/save` writes a file: lines wait for it; Ctrl-C leaves. */
  | { name: 'filing' }
  /** The chat ended: lines are ignored, a step that ends changes nothing. */
  | { name: 'left' };

/**
 * One `a4h chat` after its greeting: a state machine over the input's lines, one step at a time (a
 * turn, a file command), lines typed meanwhile queued. It first shows the thread's last exchanges
 * (`--history`) and resumes its reply in flight (or the question the agent waits on), unless
 * `--task` names the task to continue.
 */
export class ChatSession {
  private state: ChatState = { name: 'ready' };
  /** Lines typed and not handled yet, oldest first. */
  private readonly queue: string[] = [];
  private inputEnded = false;
  /** Turns that failed (an error, or a failed, rejected or canceled task): the chat then exits 1. */
  private failures = 0;
  /** `--task`, until the first message continues it. */
  private firstTask: string | undefined;
  private readonly printer: TurnPrinter;
  /** What the running turn told: the message it sent, the task the agent named (what a Ctrl-C leaves at the agent). */
  private trail = new TurnTrail();
  private readonly files: ChatFiles;
  private readonly usage = new ChatUsage();
  private readonly lines: Interface;
  /** The input and the output are a terminal: a prompt, and a new line when leaving. */
  private readonly tty: boolean;
  private settle: (code: number) => void = () => undefined;
  private readonly left = new Promise<number>((resolve) => (this.settle = resolve));

  constructor(
    private readonly io: Io,
    private readonly client: A2AClient,
    private readonly settings: ChatSettings,
    input: NodeJS.ReadableStream & { isTTY?: boolean },
  ) {
    this.firstTask = settings.task;
    this.printer = new TurnPrinter(io);
    this.files = new ChatFiles(io, settings.verbose);
    this.tty = input.isTTY === true && io.live;
    const prompt = this.tty ? { output: io.out, prompt: io.style.bold('you › ') } : {};
    this.lines = createInterface({ input, ...prompt, terminal: this.tty });
  }

  /** Runs the chat until /quit, Ctrl-C at the prompt, the end of input or a closed stdout; resolves to its exit status. */
  async run(): Promise<number> {
    const interrupt = (): void => this.interrupt();
    this.lines.on('line', (line) => this.typed(line));
    this.lines.on('close', () => {
      this.inputEnded = true;
      this.advance();
    });
    this.lines.on('SIGINT', interrupt);
    process.on('SIGINT', interrupt);
    // Whoever read the chat left (`a4h chat … | head`): leave too, cancelling the running turn.
    const stopWatching = onOutClosed(this.io, () => this.leave(0));
    this.start();
    const code = await this.left;
    process.off('SIGINT', interrupt);
    stopWatching();
    this.lines.close();
    if (this.tty) this.io.out.write('\n');
    return code;
  }

  /** The thread's last exchanges first (`--history`), read before anything else is done. */
  private start(): void {
    const subscription = new Subscription();
    this.state = { name: 'loading', subscription };
    const past$ = pastExchanges(this.io, this.client, this.settings);
    subscription.add(past$.subscribe((exchanges) => this.resume(new HeldHistory(this.io, exchanges))));
  }

  /**
   * Then a reply still in flight on the thread (a chat that was left, a process that died), or the
   * question the agent waits on; `past` shows before it, without the exchange it resumes.
   */
  private resume(past: HeldHistory): void {
    if (this.firstTask !== undefined) {
      past.show();
      this.state = { name: 'ready' };
      return this.advance();
    }
    const { agent, handle, thread, extensions } = this.settings;
    this.trail = new TurnTrail();
    const resumed = startTurn(this.client.resume({ agent, handle, thread, ...extensions }), (event) => {
      past.before(event);
      this.show(event);
    });
    this.reply(resumed, (result) => {
      past.show();
      // Nothing to resume on an agent without ListTasks (v0.3) is no failure of the chat.
      if ('error' in result && this.settings.verbose) reportError(this.io, result.error, true);
      if ('outcome' in result && isFailure(result.outcome)) this.failures++;
    });
  }

  private typed(line: string): void {
    if (this.state.name === 'left') return;
    this.queue.push(line);
    this.advance();
  }

  /** When nothing runs: the next line waiting, or the prompt, or leaving at the end of input. */
  private advance(): void {
    if (this.state.name !== 'ready') return;
    const line = this.queue.shift();
    if (line === undefined) {
      if (this.inputEnded) this.leave();
      else if (this.tty) this.lines.prompt();
      return;
    }
    this.handle(readChatLine(line));
  }

  private handle(line: ChatLine): void {
    switch (line.kind) {
      case 'quit':
        return this.leave();
      case 'blank':
        return this.advance();
      case 'help':
      case 'usage':
        this.io.err.write(line.kind === 'help' ? `${CHAT_COMMANDS}\n` : this.usage.text());
        return this.advance();
      case 'attach':
      case 'save':
        return this.filing(line.kind === 'attach' ? this.files.attach(line.argument) : this.files.save(line.argument));
      case 'unknown':
        notice(this.io, this.io.style.yellow(unknownCommand(line)));
        return this.advance();
      case 'message':
        return this.send(line.text);
    }
  }

  /** Sends a message as the thread's next turn (the first continues `--task`), with the files `/attach` gathered. */
  private send(text: string): void {
    const attached = this.files.take();
    const taskId = this.firstTask;
    this.firstTask = undefined;
    const { agent, handle, thread, extensions } = this.settings;
    const message = {
      agent,
      handle,
      thread,
      text,
      ...(attached.length > 0 ? { files: attached } : {}),
      ...(taskId === undefined ? {} : { taskId }),
      ...extensions,
    };
    this.trail = new TurnTrail();
    this.reply(
      startTurn(this.client.turn(message), (event) => this.show(event)),
      (result) => {
        if ('error' in result) {
          this.printer.abandon();
          reportError(this.io, result.error, this.settings.verbose);
          this.failures++;
        } else if ('outcome' in result && isFailure(result.outcome)) {
          this.failures++;
        }
      },
    );
  }

  /** `replying` until `turn` ends, then `ended` says what its result means, and the next line comes. */
  private reply(turn: RunningTurn, ended: (result: TurnResult) => void): void {
    this.state = { name: 'replying', turn };
    void turn.result.then((result) => {
      if (this.state.name === 'left') return;
      ended(result);
      this.state = { name: 'ready' };
      this.advance();
    });
  }

  /** `filing` until the file command is done (it never rejects), then the next line comes. */
  private filing(done: Promise<void>): void {
    this.state = { name: 'filing' };
    void done.finally(() => {
      if (this.state.name === 'left') return;
      this.state = { name: 'ready' };
      this.advance();
    });
  }

  /** A turn's events, shown: the reply, the question's hint, a failed end. */
  private show(event: TurnEvent): void {
    const { io } = this;
    this.trail.see(event);
    this.usage.see(event);
    this.printer.show(event);
    if (event.type !== 'end') return;
    this.files.replied(event.attachments);
    if (event.outcome === 'input-required') notice(io, io.style.dim('the agent asks; your next line answers it'));
    if (isFailure(event.outcome)) notice(io, io.style.yellow(`the task ended ${event.outcome}`));
    warnReplyMissing(io, event);
  }

  /**
   * Ctrl-C: cancels the running turn, or leaves. What it left at the agent is said as it is: CancelTask
   * for the task it named, else nothing to cancel yet, the message it may still act on, and how to find out.
   */
  private interrupt(): void {
    if (this.state.name !== 'replying') return this.leave();
    this.state.turn.cancel();
    this.printer.abandon();
    const { agent, thread, handle } = this.settings;
    const note = leftNote(this.trail, { agent, thread: { key: thread, handle } }, 'turn cancelled');
    notice(this.io, note.message);
    if (note.hint !== null) notice(this.io, this.io.style.dim(note.hint));
  }

  /** Ends the chat (the running turn, if any, is cancelled): 1 when a turn failed, else 0, unless `code` says. */
  private leave(code = this.failures > 0 ? 1 : 0): void {
    if (this.state.name === 'left') return;
    const was = this.state;
    this.state = { name: 'left' };
    if (was.name === 'replying') was.turn.cancel();
    if (was.name === 'loading') was.subscription.unsubscribe();
    this.settle(code);
  }
}
