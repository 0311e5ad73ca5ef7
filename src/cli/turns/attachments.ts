import { open, readFile, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { type Attachment, DEFAULT_POLICY, type OutgoingFile } from '../../node/index.js';
import { UsageError } from '../core/io.js';
import { BIDI_CONTROLS, terminalLine, terminalName } from '../output/terminal-text.js';

/** Media types by file extension, for `--attach` and `/attach` (anything else is application/octet-stream). */
const MEDIA_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.zip': 'application/zip',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
};

const EXTENSIONS: Record<string, string> = Object.fromEntries(Object.entries(MEDIA_TYPES).map(([ext, type]) => [type, ext]));

/** The media type a file's name suggests. */
export function mediaTypeOf(path: string): string {
  return MEDIA_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** A file from disk as a file part: its base name, the media type its extension suggests, its bytes (refused past the size bound before it is read). */
export async function readAttachment(path: string, maxBytes: number = DEFAULT_POLICY.maxAttachmentBytes): Promise<OutgoingFile> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new Error('not a file');
    size = info.size;
  } catch (error) {
    throw new UsageError(`cannot attach ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (size > maxBytes) throw new UsageError(`cannot attach ${path}: ${size} bytes, more than ${maxBytes} (maxAttachmentBytes)`);
  const bytes = new Uint8Array(await readFile(path));
  return { name: basename(path), mediaType: mediaTypeOf(path), bytes };
}

/**
 * One line for an attachment: `[file] name (mediaType, N bytes)`, a URI for a file by URI, `[data]`
 * for data; sanitized for the terminal (the name, type and URI are the agent's; the name keeps no bidi control).
 */
export function attachmentLine(attachment: Attachment): string {
  if (attachment.kind === 'data')
    return terminalLine(`[data] ${attachment.mediaType ?? 'application/json'} ${preview(JSON.stringify(attachment.data) ?? '')}`);
  const type = attachment.mediaType ?? 'application/octet-stream';
  const where = attachment.bytes !== undefined ? `${attachment.bytes.length} bytes` : (attachment.uri ?? 'no content');
  return terminalLine(`[file] ${attachment.name === undefined ? '(unnamed)' : terminalName(attachment.name)} (${type}, ${where})`);
}

function preview(json: string): string {
  return json.length > 80 ? `${json.slice(0, 79)}…` : json;
}

/**
 * Writes the attachments that carry content into `dir`: files with bytes under their own base name
 * (made safe: no directories, no leading dot; `-1`, `-2`… when taken), data parts as `data-N.json`.
 * Never overwrites. Files by URI are not fetched. Returns the paths written.
 */
export async function saveAttachments(dir: string, attachments: readonly Attachment[]): Promise<string[]> {
  const written: string[] = [];
  let data = 0;
  for (const [i, attachment] of attachments.entries()) {
    let name: string;
    let content: Uint8Array | string;
    if (attachment.kind === 'data') {
      name = `data-${++data}.json`;
      content = `${JSON.stringify(attachment.data, null, 2)}\n`;
    } else if (attachment.bytes !== undefined) {
      name = safeName(attachment.name, `attachment-${i + 1}${EXTENSIONS[attachment.mediaType ?? ''] ?? ''}`);
      content = attachment.bytes;
    } else {
      continue;
    }
    written.push(await writeNew(dir, name, content));
  }
  return written;
}

/** C0 controls, DEL, C1 controls: a terminal acts on them when a name is listed. */
const CONTROLS_IN_NAMES = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * An agent's file name made safe to write and to list: its base name only (no directory, `\` read as
 * `/`), its control characters and bidi controls ({@link BIDI_CONTROLS}: they show a name reversed)
 * dropped, `<>:"|?*` as `_`, no leading dot, at most 200 characters; `fallback` when nothing is left.
 */
export function safeName(name: string | undefined, fallback: string): string {
  const base = basename((name ?? '').replace(/\\/g, '/'))
    .replace(CONTROLS_IN_NAMES, '')
    .replace(BIDI_CONTROLS, '')
    .replace(/[<>:"|?*]/g, '_')
    .replace(/^\.+/, '');
  return base === '' ? fallback : base.slice(0, 200);
}

/** Writes `content` to a name in `dir` that is not taken yet (exclusive create), and returns its path. */
async function writeNew(dir: string, name: string, content: Uint8Array | string): Promise<string> {
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 0; ; n++) {
    const path = join(dir, n === 0 ? name : `${stem}-${n}${ext}`);
    let file;
    try {
      file = await open(path, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && n < 1000) continue;
      throw error;
    }
    try {
      await file.writeFile(content);
    } finally {
      await file.close();
    }
    return path;
  }
}
