import type { AgentEvent } from '../../../port/types.js';
import { isKeptId } from '../../../render/ids.js';
import type { StreamIds } from './results.js';

/**
 * The parse-less path: the frame that makes up almost every stream, a text chunk, read from its text
 * without `JSON.parse`, for the exact bytes `@a2a-js/sdk` servers write (the compact JSON of their
 * codec, members in field order):
 *
 * `{"jsonrpc":"2.0","id":<id>,"result":{"artifactUpdate":{"taskId":"…","contextId":"…","artifact":{"artifactId":"…","parts":[{"text":"…"}]}[,"append":true][,"lastChunk":true]}}}`
 *
 * Anything else — another member, another order, whitespace, a second part, an id that is not this
 * call's as written, a string with a character JSON forbids, an id the client does not keep (`render/ids.ts`) — returns undefined, and the frame takes
 * the full path (`frames.ts`), which also says what is wrong with it. Where it answers, it gives the
 * event and remembers the ids the full path would (`test/sdk/wire/scan.test.ts` holds the two equal).
 */
export function scanTextChunk(data: string, echo: string, ids: StreamIds): AgentEvent | undefined {
  const scan = new Scan(data);
  if (!scan.literal('{"jsonrpc":"2.0","id":') || !scan.literal(echo) || !scan.literal(',"result":{"artifactUpdate":{"taskId":"'))
    return undefined;
  const taskId = scan.string(ids.taskId);
  if (taskId === undefined || !scan.literal(',"contextId":"')) return undefined;
  const contextId = scan.string(ids.contextId);
  if (contextId === undefined || !scan.literal(',"artifact":{"artifactId":"')) return undefined;
  const artifactId = scan.string();
  if (!artifactId || !scan.literal(',"parts":[{"text":"')) return undefined;
  const text = scan.string();
  if (text === undefined || !scan.literal('}]}')) return undefined;
  const append = scan.literal(',"append":true');
  const lastChunk = scan.literal(',"lastChunk":true');
  if (!scan.literal('}}}') || !scan.atEnd()) return undefined;
  // An id the stream told before was checked then; a new one the client does not keep is left to the full path, which says so.
  if ((taskId !== ids.taskId && !isKeptId(taskId)) || (contextId !== ids.contextId && !isKeptId(contextId)) || !isKeptId(artifactId))
    return undefined;
  const event: AgentEvent = { kind: 'artifact', taskId, artifact: { artifactId, parts: [{ kind: 'text', text }] }, append, lastChunk };
  if (contextId !== '') event.contextId = contextId;
  ids.taskId ||= taskId;
  ids.contextId ||= contextId;
  return event;
}

/** A JSON string's raw characters that need reading: an escape, or a control character (which JSON forbids). */
const SPECIAL = /[\\\u0000-\u001f]/;
/** A string that is not written as it is in JSON: a quote, an escape or a control character. */
const RAW = /["\\\u0000-\u001f]/;

/** A position in one frame's text, read forward. */
class Scan {
  private at = 0;

  constructor(private readonly data: string) {}

  /** Steps over `text` when it comes next; false (and no step) otherwise. */
  literal(text: string): boolean {
    if (!this.data.startsWith(text, this.at)) return false;
    this.at += text.length;
    return true;
  }

  /**
   * The rest of a string whose opening quote was read, and its closing quote stepped over; undefined
   * when it is no valid JSON string. When it is `known` (an id the stream told before), that string
   * itself: the ladder compares ids on every event, and the same string compares at once.
   */
  string(known?: string): string | undefined {
    const start = this.at;
    if (
      known !== undefined &&
      this.data.startsWith(known, start) &&
      this.data.charCodeAt(start + known.length) === 0x22 &&
      !RAW.test(known)
    ) {
      this.at = start + known.length + 1;
      return known;
    }
    let end = this.data.indexOf('"', start);
    // A quote after an odd run of backslashes is escaped: the string goes on.
    while (end !== -1 && escaped(this.data, end)) end = this.data.indexOf('"', end + 1);
    if (end === -1) return undefined;
    this.at = end + 1;
    const raw = this.data.slice(start, end);
    if (!SPECIAL.test(raw)) return detached(raw);
    try {
      return JSON.parse(this.data.slice(start - 1, end + 1)) as string;
    } catch {
      return undefined;
    }
  }

  atEnd(): boolean {
    return this.at === this.data.length;
  }
}

/**
 * `text` as a string of its own. A slice of a string keeps the whole of it alive (V8 makes slices of
 * 13 characters and more point into their parent), and a frame is a slice of the chunk the wire gave,
 * up to 64 KiB of text: the strings an event carries are kept (the reply, the artifact's id, the
 * task's), so each would keep its chunk for as long as the turn, or the caller, holds it. Joined to
 * another string and sliced again, the characters are copied once: the copy holds only them.
 * (`JSON.parse`, the full path, makes strings of their own too.)
 */
function detached(text: string): string {
  return text.length < 13 ? text : ` ${text}`.slice(1);
}

/** Whether the quote at `at` follows an odd number of backslashes. */
function escaped(data: string, at: number): boolean {
  let slashes = 0;
  while (data.charCodeAt(at - 1 - slashes) === 0x5c) slashes++;
  return slashes % 2 === 1;
}
