/** An Io for the CLI's printers in a test: its stderr a terminal without NO_COLOR, what it writes collected. */
import { PassThrough } from 'node:stream';
import type { Io } from '../../src/cli/core/io.js';
import { styleFor } from '../../src/cli/core/style.js';

/** An Io whose stderr is a terminal without NO_COLOR: its style dims; what it writes to stderr, collected. */
export function terminalIo(): { io: Io; written: () => string } {
  const err = new PassThrough();
  let written = '';
  err.on('data', (chunk: Buffer) => (written += chunk.toString()));
  const io: Io = { out: new PassThrough(), err, style: styleFor({ isTTY: true }, {}), live: false, env: {} };
  return { io, written: () => written };
}
