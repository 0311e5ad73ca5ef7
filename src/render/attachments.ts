import { A2AError } from '../errors.js';
import type { ActivityEvent, Attachment, AttachmentEvent, SurfaceEvent, SurfaceRefusedEvent } from '../port/events.js';
import type { DataPart, FilePart, Part } from '../port/types.js';
import { SurfaceSet } from './a2ui/surfaces.js';
import { isA2UIPart } from './a2ui/wire.js';
import { recordKind } from './records.js';

/** Where attachment and activity events go: any array of events. */
type RichOut = { push(event: AttachmentEvent | ActivityEvent | SurfaceEvent | SurfaceRefusedEvent): unknown };

/** Activity records remembered for de-duplication at most; past it the memory starts afresh. */
const MAX_ACTIVITY_KEYS = 1_000;

/**
 * The answer's files and data parts, each emitted once however often the agent repeats it: in the
 * chunks of an artifact, in a replace (ADK's closing chunk), in a task snapshot. A part is known by
 * its content (kind, name, media type, URI or bytes, data), so the same part seen again says
 * nothing. Bytes are kept by reference (never copied); `maxBytes` bounds the bytes and data kept
 * and `maxCount` the parts, past either a protocol error, so a hostile agent cannot grow memory.
 * Framework records (ADK tool calls) become activity events instead, and A2UI parts surface events
 * ({@link SurfaceSet}).
 */
export class AttachmentSet {
  private readonly kept: Attachment[] = [];
  /** Content key → the attachments with that key (more than one only on a fingerprint collision). */
  private readonly byKey = new Map<string, Attachment[]>();
  private readonly activityKeys = new Set<string>();
  private readonly surfaces = new SurfaceSet();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly maxCount: number,
  ) {}

  /** The turn's A2UI surfaces, as its messages left them (undefined while it drew none). */
  surfaceList(): ReturnType<SurfaceSet['list']> {
    return this.surfaces.list();
  }

  /** Nothing kept: no attachment, no A2UI surface. */
  get empty(): boolean {
    return this.kept.length === 0 && !this.surfaces.drew;
  }

  /** Every attachment emitted so far, in order (the same array: copy it to keep it). */
  list(): readonly Attachment[] {
    return this.kept;
  }

  /** The non-text parts of some parts, as events. Text parts cost one comparison each. */
  scan(parts: readonly Part[], out: RichOut): void {
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (part.kind === 'text') continue;
      if (part.kind === 'data') {
        const record = recordKind(part.metadata);
        if (record !== undefined) this.activity(record, part.data, out);
        else if (isA2UIPart(part)) this.surfaces.part(part, out);
        else this.data(part, out);
      } else {
        this.file(part, out);
      }
    }
  }

  private file(part: FilePart, out: RichOut): void {
    const { bytes } = part;
    const key = `f\u0000${part.name ?? ''}\u0000${part.mediaType ?? ''}\u0000${part.uri ?? ''}\u0000${bytes === undefined ? '' : fingerprint(bytes)}`;
    const same = this.byKey.get(key);
    if (same?.some((known) => known.kind === 'file' && sameBytes(known.bytes, bytes))) return;
    const attachment: Attachment = { kind: 'file' };
    if (part.name !== undefined) attachment.name = part.name;
    if (part.mediaType !== undefined) attachment.mediaType = part.mediaType;
    if (bytes !== undefined) {
      attachment.size = bytes.length;
      attachment.bytes = bytes;
    }
    if (part.uri !== undefined) attachment.uri = part.uri;
    this.keep(key, attachment, (bytes?.length ?? 0) + (part.uri?.length ?? 0), out);
  }

  private data(part: DataPart, out: RichOut): void {
    const json = jsonOf(part.data);
    const key = `d\u0000${part.mediaType ?? ''}\u0000${json}`;
    if (this.byKey.has(key)) return;
    const attachment: Attachment =
      part.mediaType === undefined ? { kind: 'data', data: part.data } : { kind: 'data', data: part.data, mediaType: part.mediaType };
    this.keep(key, attachment, json.length, out);
  }

  private keep(key: string, attachment: Attachment, size: number, out: RichOut): void {
    if (this.kept.length + 1 > this.maxCount) {
      throw new A2AError({
        kind: 'protocol',
        operation: 'turn',
        message: `the agent sent more than ${this.maxCount} attachments (maxAttachments)`,
      });
    }
    if (this.bytes + size > this.maxBytes) {
      throw new A2AError({
        kind: 'protocol',
        operation: 'turn',
        message: `the agent's attachments are larger than ${this.maxBytes} bytes (maxAttachmentBytes)`,
      });
    }
    this.bytes += size;
    this.kept.push(attachment);
    const same = this.byKey.get(key);
    if (same === undefined) this.byKey.set(key, [attachment]);
    else same.push(attachment);
    out.push({ type: 'attachment', attachment });
  }

  private activity(kind: string, data: unknown, out: RichOut): void {
    const key = `${kind}\u0000${jsonOf(data)}`;
    if (this.activityKeys.has(key)) return;
    if (this.activityKeys.size >= MAX_ACTIVITY_KEYS) this.activityKeys.clear();
    this.activityKeys.add(key);
    const name = (data as { name?: unknown } | null | undefined)?.name;
    out.push(typeof name === 'string' ? { type: 'activity', kind, name, data } : { type: 'activity', kind, data });
  }
}

function jsonOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch {
    return String(value);
  }
}

/** The length and up to 64 bytes sampled evenly: cheap, and a match is confirmed byte by byte. */
function fingerprint(bytes: Uint8Array): string {
  const length = bytes.length;
  const step = Math.max(1, Math.floor(length / 64));
  let hash = 0x811c9dc5;
  for (let i = 0; i < length; i += step) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return `${length}:${(hash >>> 0).toString(16)}`;
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
