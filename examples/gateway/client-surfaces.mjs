/**
 * A2UI at the gateway's client, across a turn's streams. A stream resumed at another replica (after a
 * crash, a deploy, a silence) is a new turn there, which did not see the agent's parts: it gives every
 * surface's messages again from the task's snapshot, and the reply position (`Last-Event-ID`) counts only
 * text. A renderer given a `createSurface` twice draws the surface twice (or resets it), so the client
 * drops what a later stream gives again: each message of a surface, and each refusal, is given to the
 * caller as many times as the agent's turn gave it, whatever the streams. And what a terminal says of
 * them: it draws no surface.
 */
import { createHash } from 'node:crypto';

/** What the A2UI frames of one turn gave the caller, by key, to drop what a resumed stream gives again. */
export class SurfaceReplays {
  /** How many times each message (or refusal) was given to the caller, by its key. */
  #given = new Map();
  /** How many times the stream now read gave each, by its key. */
  #now = new Map();
  /** Messages and refusals a later stream gave again, dropped. */
  dropped = 0;

  /** A new stream begins: what it gives is counted afresh against what was given. */
  stream() {
    this.#now = new Map();
  }

  /**
   * A `surface` or `surface-refused` frame's JSON as the caller gets it: a surface without the messages a
   * later stream gives again (undefined when none is left), a refusal given again undefined; any other
   * frame as it is. A message this stream gives more often than the earlier streams gave it is new (the
   * agent may send one twice): given.
   * @param {{ type: string; [key: string]: unknown }} data
   * @returns {{ type: string; [key: string]: unknown } | undefined}
   */
  take(data) {
    if (data.type === 'surface-refused') return this.#fresh(`r${JSON.stringify(data)}`) ? data : undefined;
    if (data.type !== 'surface' || !Array.isArray(data.messages)) return data;
    const messages = data.messages.filter((message) => this.#fresh(`m${String(data.surfaceId)}\u0000${JSON.stringify(message)}`));
    if (messages.length === data.messages.length) return data;
    return messages.length === 0 ? undefined : { ...data, messages };
  }

  /** Whether the stream's next giving of `text` is new to the caller; counted either way. */
  #fresh(/** @type {string} */ text) {
    // A hash, not the text: a surface's messages can be large, and the client keeps one key per message.
    const key = createHash('sha256').update(text).digest('base64');
    const now = this.#now.get(key) ?? 0;
    const given = this.#given.get(key) ?? 0;
    this.#now.set(key, now + 1);
    if (now < given) {
      this.dropped += 1;
      return false;
    }
    this.#given.set(key, given + 1);
    return true;
  }
}

/** Characters that would move a terminal's cursor, colour it or reorder its text: C0 and C1 controls, separators, bidi controls. */
const UNSAFE_ALL = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** A name of the agent's for a terminal line: JSON-quoted, its controls escaped, cut at 64 characters. */
const quoted = (/** @type {unknown} */ value) => {
  const text = String(value);
  return JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}…` : text).replace(
    UNSAFE_ALL,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
};

/** A sentence for a terminal line: controls as spaces, cut at 200 characters. */
const plain = (/** @type {unknown} */ value) => String(value).replace(UNSAFE_ALL, ' ').slice(0, 200);

/**
 * What the command says of A2UI frames, as `a4h chat` says it: once per surface that one came and that a
 * terminal cannot draw it, and each refusal. Returns the line (without its newline), or undefined.
 * @param {Set<string>} told the surfaces told of so far (this adds to it)
 * @param {{ type: string; [key: string]: unknown }} data
 */
export function surfaceNotice(told, data) {
  if (data.type === 'surface-refused') return `[an interface from the agent was refused: ${plain(data.message)}]`;
  if (data.type !== 'surface' || told.has(String(data.surfaceId))) return undefined;
  told.add(String(data.surfaceId));
  return `[the agent sent an interface (A2UI surface ${quoted(data.surfaceId)}); a terminal cannot draw it: open the thread in a page that renders A2UI]`;
}
