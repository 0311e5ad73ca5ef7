import type { Io } from '../core/io.js';
import { UsageError } from '../core/io.js';
import { errorEnvelope, exitStatusOf } from './envelope.js';
import { hintFor, type HintContext } from './hints.js';
import { terminalJson, terminalLine, terminalText } from './terminal-text.js';

/**
 * The output modes of the A2A CLI specification (§9): `text` (the default: `Label: value` lines and
 * blocks) or `json` (the protocol's own objects); `stream` turns `json` into JSON Lines, one object per
 * event, and `text` into one record per event. `--json` (a4h's turn events) is another thing.
 */
export type OutputFormat = 'text' | 'json';

/** How a command prints: its format, and whether it follows a stream (`--stream`). */
export interface OutputMode {
  format: OutputFormat;
  stream: boolean;
}

/** The format `-o` named (`text` when absent); anything else is a usage error. */
export function outputFormat(value: string | undefined): OutputFormat {
  if (value === undefined || value === 'text' || value === 'json') return value ?? 'text';
  throw new UsageError(`-o/--output takes text or json, not "${value}"`);
}

/** One JSON document on stdout: the whole result of a command under `-o json`. */
export function writeDocument(io: Io, value: unknown): void {
  io.out.write(`${terminalJson(JSON.stringify(value, null, 2))}\n`);
}

/** One JSON Lines line on stdout (`-o json --stream`): the object on one physical line. */
export function writeJsonLine(io: Io, value: unknown): void {
  io.out.write(`${terminalJson(JSON.stringify(value))}\n`);
}

/** A field or block label with its value; a field whose value is undefined is left out. */
export type Field = readonly [label: string, value: string | number | boolean | undefined];

/** A block of the `text` floor: its `Label: value` line (the value may be absent), then its body. */
export interface TextBlock {
  label: string;
  value?: string;
  body: string;
}

/** A record of the `text` floor: its fields (one line each), then its blocks (a labelled body each). */
export interface TextRecord {
  fields: readonly Field[];
  blocks?: readonly TextBlock[];
}

/** A field's value on one line: control sequences removed, newlines and tabs spaces, control characters dropped. */
export function fieldValue(value: string | number | boolean): string {
  return terminalLine(String(value));
}

/**
 * Writes one record of the `text` floor (§9.2): each field as `Label: value` on its own line, then
 * each block as its `Label: value` line, its body (control sequences dropped) and a blank line. A
 * record with no block ends with a blank line too, so records never run into each other.
 */
export function writeRecord(io: Io, record: TextRecord): void {
  let text = '';
  for (const [label, value] of record.fields) if (value !== undefined) text += `${label}: ${fieldValue(value)}\n`;
  const blocks = record.blocks ?? [];
  if (blocks.length === 0) text += '\n';
  for (const { label, value, body } of blocks) {
    const content = terminalText(body).replace(/\n+$/, '');
    // A blank line inside would read as the block's end: it keeps a space.
    text += `${label}:${value === undefined ? '' : ` ${fieldValue(value)}`}\n${content.replace(/\n(?=\n)/g, '\n ')}\n\n`;
  }
  io.out.write(text);
}

/**
 * Reports a failure as the specification asks (§9.4) and returns the command's exit status: under
 * `-o json` the error envelope on stdout (one document, or the last JSON line under `--stream`); in
 * `text` its `Error:`, `Message:`, `A2A Code:` (the transport's code, when there is one) and `Hint:` fields on stderr (stdout stays the payload's). The exit
 * status follows the code (2 usage, 3 unreachable, 4 authentication, 5 timeout, else 1).
 */
export function reportFailure(io: Io, mode: OutputMode, error: unknown, context: HintContext & { verbose?: boolean }): number {
  const envelope = errorEnvelope(error, hintFor(error, context));
  if (mode.format === 'json') {
    if (mode.stream) writeJsonLine(io, envelope);
    else writeDocument(io, envelope);
  }
  const { code, message, hint, a2aCode } = envelope.error;
  // The agent's own code (JSON-RPC error, gRPC status, HTTP status) stays beside A2A's name for it.
  let text = `Error: ${fieldValue(code)}\nMessage: ${fieldValue(message)}\n`;
  if (a2aCode !== null) text += `A2A Code: ${fieldValue(a2aCode)}\n`;
  if (hint !== null) text += `Hint: ${fieldValue(hint)}\n`;
  // With --verbose, the causes under it (an a4h affordance; never a credential: the library's errors name none).
  for (let cause = (error as { cause?: unknown })?.cause, depth = 0; context.verbose && cause !== undefined && depth < 8; depth++) {
    text += `Caused By: ${fieldValue(cause instanceof Error ? `${cause.name}: ${cause.message}` : String(JSON.stringify(cause)))}\n`;
    cause = (cause as { cause?: unknown })?.cause;
  }
  io.err.write(text);
  return exitStatusOf(error);
}
