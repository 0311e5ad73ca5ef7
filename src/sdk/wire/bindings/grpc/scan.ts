import type { AgentEvent } from '../../../../port/types.js';
import { isKeptId } from '../../../../render/ids.js';
import type { StreamIds } from '../../mapping/stream-ids.js';

/**
 * gRPC's parse-less path: the message that makes up almost every stream, a text chunk, read from its
 * bytes without the SDK's codec (which builds the whole `StreamResponse`, artifact and part objects,
 * then mapped into ours), for the exact protobuf the SDK's codec writes (fields in number order,
 * defaults left out):
 *
 * `StreamResponse { artifact_update (4) { task_id (1), context_id (2), artifact (3) { artifact_id (1),
 * parts (4) { text (1) } }, append (4), last_chunk (5) } }`
 *
 * Anything else — another field (a name, metadata, a second part), another order, a field twice, a
 * length past its message, an empty artifact id, an id the client does not keep (`render/ids.ts`), a bool
 * written other than 0 or 1 — returns undefined,
 * and the message takes the full path (the SDK's decoding and `fromSdkEvent`), which also says what is
 * wrong with it. Strings are decoded as the SDK's codec decodes them (UTF-8, malformed bytes as U+FFFD,
 * a leading BOM kept). Where it answers, it gives the event the full path gives and remembers the ids
 * it would, and the chunk's artifact id (`test/sdk/wire/grpc/grpc-scan.test.ts` holds the two equal).
 */
export function scanGrpcTextChunk(bytes: Uint8Array, ids: ScanIds): AgentEvent | undefined {
  const scan = new ByteScan(bytes);
  if (!scan.tag(0x22) || scan.length() !== bytes.length) return undefined;
  const taskId = scan.tag(0x0a) ? scan.string(ids.taskId) : '';
  if (taskId === undefined) return undefined;
  const contextId = scan.tag(0x12) ? scan.string(ids.contextId) : '';
  if (contextId === undefined || !scan.tag(0x1a)) return undefined;
  const artifactEnd = scan.length();
  if (artifactEnd < 0 || !scan.tag(0x0a)) return undefined;
  const artifactId = scan.string(ids.artifactId);
  if (!artifactId || !scan.tag(0x22)) return undefined;
  const partEnd = scan.length();
  if (partEnd !== artifactEnd || !scan.tag(0x0a)) return undefined;
  const text = scan.string();
  if (text === undefined || scan.at !== partEnd) return undefined;
  const append = scan.tag(0x20) ? scan.bool() : false;
  const lastChunk = scan.tag(0x28) ? scan.bool() : false;
  if (append === undefined || lastChunk === undefined || scan.at !== bytes.length) return undefined;
  // An id told before (the stream's, the last chunk's artifact) was checked then; a new one the client does not keep is left to the full path, which says so.
  if (
    (taskId !== ids.taskId && !isKeptId(taskId)) ||
    (contextId !== ids.contextId && !isKeptId(contextId)) ||
    (artifactId !== ids.artifactId && !isKeptId(artifactId))
  )
    return undefined;
  const event: AgentEvent = { kind: 'artifact', taskId, artifact: { artifactId, parts: [{ kind: 'text', text }] }, append, lastChunk };
  if (contextId !== '') event.contextId = contextId;
  ids.taskId ||= taskId;
  ids.contextId ||= contextId;
  ids.artifactId = artifactId;
  return event;
}

/** The ids a stream told first, and the artifact id of the last chunk read: a text reply's chunks name one artifact. */
export interface ScanIds extends StreamIds {
  artifactId?: string;
}

/** The SDK's codec's way with UTF-8 (`@bufbuild/protobuf`, not strict): malformed bytes as U+FFFD, a leading U+FEFF kept. */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** A position in one message's bytes, read forward. */
class ByteScan {
  at = 0;

  constructor(private readonly bytes: Uint8Array) {}

  /** Steps over the one-byte field tag `tag` when it comes next; false (and no step) otherwise. */
  tag(tag: number): boolean {
    if (this.bytes[this.at] !== tag) return false;
    this.at++;
    return true;
  }

  /** A length (a varint of at most 5 bytes) and where the bytes it counts end; -1 when they would run past the message. */
  length(): number {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = this.bytes[this.at++];
      if (byte === undefined) return -1;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return this.at + value <= this.bytes.length ? this.at + value : -1;
    }
    return -1;
  }

  /** A bool as the SDK's codec writes it (one byte, 0 or 1); undefined for anything else. */
  bool(): boolean | undefined {
    const byte = this.bytes[this.at++];
    return byte === 1 ? true : byte === 0 ? false : undefined;
  }

  /**
   * A length-delimited string; undefined when its length runs past the message. When it is `known`
   * (an id the stream told before, in ASCII) byte for byte, that string itself: the ladder compares
   * ids on every event, and the same string compares at once.
   */
  string(known?: string): string | undefined {
    const end = this.length();
    if (end < 0) return undefined;
    const start = this.at;
    this.at = end;
    if (known !== undefined && known.length === end - start && sameAscii(this.bytes, start, known)) return known;
    return utf8.decode(this.bytes.subarray(start, end));
  }
}

/** Whether the bytes from `start` are `text`'s characters, all ASCII. */
function sameAscii(bytes: Uint8Array, start: number, text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80 || bytes[start + i] !== code) return false;
  }
  return true;
}
