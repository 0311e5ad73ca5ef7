import type { TurnEvent } from '../../node/index.js';
import { attachmentLine } from './attachments.js';
import { dimLines, userLines } from './exchange-text.js';
import { notice, type Io } from '../core/io.js';
import { terminalLine, terminalText } from '../output/terminal-text.js';

/**
 * Shows one turn to a person. On a terminal the reply streams in as it arrives (a replace erases
 * what was shown and writes the new text) and the agent's progress shows on a status line until
 * the reply starts. Elsewhere (a pipe, a file) the reply is written once, whole, at the end.
 * Notices (reconnecting, sign-in requests) go to stderr either way, and so does what a resumed reply
 * answers (`you: …`, dimmed). After the reply, one line per attachment (`[file] name (mediaType, N
 * bytes)`) on stdout. Everything of the agent's goes through the terminal sanitizer first: its
 * control sequences never reach the terminal; the printer's own (erase, colour) are added after.
 */
export class TurnPrinter {
  private shown = '';
  private statusShown = false;
  /** The A2UI surfaces this turn told of (each once). */
  private readonly surfaces = new Set<string>();

  constructor(private readonly io: Io) {}

  show(event: TurnEvent): void {
    const { io } = this;
    switch (event.type) {
      case 'status':
        if (io.live && this.shown === '' && event.text) this.status(`… ${terminalLine(event.text)}`);
        return;
      case 'text': {
        const text = terminalText(event.text);
        if (!io.live) {
          // Kept, not written: a pipe gets the reply once, whole (or what arrived, on abandon).
          this.shown = event.replace ? text : this.shown + text;
          return;
        }
        this.clearStatus();
        if (event.replace) this.erase();
        io.out.write(text);
        this.shown = event.replace ? text : this.shown + text;
        return;
      }
      case 'auth-required':
        this.clearStatus();
        notice(
          io,
          io.style.yellow(`the agent needs you to sign in: ${event.text === undefined ? '(no link given)' : terminalLine(event.text)}`),
        );
        return;
      case 'reconnecting':
        this.clearStatus();
        notice(io, io.style.dim(`connection lost (${terminalLine(event.cause.message)}); reconnecting, attempt ${event.attempt}…`));
        return;
      case 'polling':
      case 'fallback':
      case 'task-gone':
      case 'context-refused':
      case 'reconcile':
        notice(io, io.style.dim(RECOVERY_NOTICES[event.type]));
        return;
      case 'push':
        if (event.step !== 'asked') notice(io, io.style.dim(PUSH_NOTICES[event.step]));
        return;
      case 'context-adopted':
        notice(io, io.style.dim(`the agent changed the conversation id to ${terminalLine(event.adopted)}; following it`));
        return;
      case 'end': {
        this.clearStatus();
        const text = terminalText(event.text);
        if (!io.live) {
          io.out.write(text);
        } else if (text !== this.shown) {
          this.erase();
          io.out.write(text);
        }
        if (text !== '') io.out.write('\n');
        for (const attachment of event.attachments ?? []) io.out.write(`${attachmentLine(attachment)}\n`);
        this.shown = '';
        return;
      }
      case 'surface':
        // A2UI: a terminal draws no interface; it says one came, once per surface, and where to see it.
        if (!this.surfaces.has(event.surfaceId)) {
          this.surfaces.add(event.surfaceId);
          notice(io, io.style.dim(SURFACE_NOTICE(terminalLine(event.surfaceId))));
        }
        return;
      case 'surface-refused':
        notice(io, io.style.dim(`an interface from the agent was refused: ${event.message}`));
        return;
      case 'request':
        // What a resumed reply answers, dimmed on stderr (stdout keeps the reply alone).
        this.clearStatus();
        dimLines(io, userLines(event));
        return;
      case 'queued': // the command sets no agentLimits
      case 'start':
      case 'task':
      case 'attachment':
      case 'activity':
      case 'usage':
        // Nothing to show yet: the attachment lines come with the end, the rest is the ladder's (usage: the end's).
        return;
      default:
        // Every event type is one of the cases above: a new one does not compile until it is shown or let pass.
        return event satisfies never;
    }
  }

  /**
   * The turn ends without an `end` (cancel, timeout, error): clears a status line left on screen.
   * With `keep` (`send`), when the output is not a terminal, writes what arrived so far, so a pipe
   * keeps it; `chat` drops a cancelled reply.
   */
  abandon(keep = false): void {
    this.clearStatus();
    if (this.io.live && this.shown !== '') this.io.out.write('\n');
    else if (keep && this.shown !== '') this.io.out.write(`${this.shown}\n`);
    this.shown = '';
  }

  private status(text: string): void {
    const width = Math.max(10, (this.io.out.columns ?? 80) - 1);
    this.io.err.write(`\r\x1b[2K${this.io.style.dim(text.replace(/\s+/g, ' ').slice(0, width))}`);
    this.statusShown = true;
  }

  private clearStatus(): void {
    if (!this.statusShown) return;
    this.io.err.write('\r\x1b[2K');
    this.statusShown = false;
  }

  /** Erases the reply shown so far: up as many rows as it took, then clear to the end of the screen. */
  private erase(): void {
    if (this.shown === '') return;
    const columns = Math.max(1, this.io.out.columns ?? 80);
    const rows = this.shown.split('\n').reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / columns)), 0);
    this.io.out.write(`${rows > 1 ? `\x1b[${rows - 1}A` : ''}\r\x1b[J`);
    this.shown = '';
  }
}

/** What a terminal says of an A2UI surface: that it came, and where it can be seen. */
const SURFACE_NOTICE = (surfaceId: string): string =>
  `the agent sent an interface (A2UI surface ${surfaceId}); a terminal cannot draw it: open the thread in a page that renders A2UI, or see its messages with a4h send -o json`;

/** What a push note says on the terminal (`asked` says nothing: the reply follows as ever). */
const PUSH_NOTICES = {
  'handed-off': 'the agent will post the rest of this reply; the stream is let go',
  refused: 'the agent refused to post the rest of this reply; following it as before',
  missed: "the agent's posts stopped arriving; following the task again",
} as const;

const RECOVERY_NOTICES = {
  polling: 'asking the agent for the result…',
  fallback: 'the agent refused to stream; sending without streaming',
  'task-gone': 'the earlier task is gone; starting a new one in the same conversation',
  'context-refused': 'the agent refused this conversation id; sending again for one of its own',
  reconcile: 'the agent resumed without a snapshot; checking the reply with it…',
} as const;
