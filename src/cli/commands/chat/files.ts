import { mkdir } from 'node:fs/promises';
import type { Attachment, OutgoingFile } from '../../../node/index.js';
import { attachmentLine, readAttachment, saveAttachments } from '../../turns/attachments.js';
import { reportError } from '../../core/errors.js';
import { notice, type Io } from '../../core/io.js';

/**
 * The chat's file commands: `/attach PATH` reads a file for the next message, `/save DIR` writes the
 * last reply's files (and data parts) into DIR, as `send --save` does. Each resolves once done (the
 * chat's next lines wait for it) and never rejects: a problem is one line on stderr.
 */
export class ChatFiles {
  /** Files for the next message. */
  private readonly pending: OutgoingFile[] = [];
  /** The last reply's files and data parts. */
  private last: readonly Attachment[] = [];

  constructor(
    private readonly io: Io,
    private readonly verbose: boolean,
  ) {}

  /** Remembers what a reply carried (its `end` event's attachments), for `/save`. */
  replied(attachments: readonly Attachment[] | undefined): void {
    this.last = attachments ?? [];
  }

  /** The files `/attach` gathered, for the message being sent (and forgotten here). */
  take(): OutgoingFile[] {
    return this.pending.splice(0);
  }

  /** `/attach PATH`. */
  async attach(path: string): Promise<void> {
    if (path === '') return notice(this.io, this.io.style.yellow('/attach needs a file path'));
    try {
      const file = await readAttachment(path);
      this.pending.push(file);
      notice(this.io, `attached ${attachmentLine({ kind: 'file', ...file })}; it goes with your next message`);
    } catch (error) {
      reportError(this.io, error, this.verbose);
    }
  }

  /** `/save DIR`: the last reply's files with bytes and its data parts, never overwriting; files by URI are not fetched. */
  async save(dir: string): Promise<void> {
    if (dir === '') return notice(this.io, this.io.style.yellow('/save needs a directory'));
    const savable = this.last.filter((attachment) => attachment.kind === 'data' || attachment.bytes !== undefined);
    if (savable.length === 0) return notice(this.io, this.io.style.yellow('nothing to save: the last reply carried no file or data'));
    try {
      await mkdir(dir, { recursive: true });
      for (const path of await saveAttachments(dir, savable)) notice(this.io, `saved ${path}`);
    } catch (error) {
      reportError(this.io, error, this.verbose);
    }
  }
}
