/**
 * The demo agent's memory: what each conversation (contextId) said so far, kept in one JSON file.
 *
 * The agent holds the state, the client holds none: restart everything, send the same contextId,
 * and the agent still knows which turn it is. Writes are atomic (temp file, then rename); a missing
 * or corrupt file just means "start fresh".
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { JsonFile, readJson } from './json-file.js';

/** How many conversations the file keeps (the most recently used win). */
export const MAX_CONVERSATIONS = 1_000;
/** How many of a conversation's messages are remembered (its turn count keeps going). */
export const MAX_MESSAGES = 20;

/** One remembered conversation. */
export interface Conversation {
  /** Turns so far, including the current one. */
  turns: number;
  /** The user's recent messages, oldest first (at most {@link MAX_MESSAGES}). */
  messages: string[];
  /** When it was last used (ISO 8601). */
  updatedAt: string;
}

/** What {@link Memory.remember} reports about the turn that just started. */
export interface TurnRecord {
  /** 1 for the first message of a conversation. */
  turn: number;
  /** What the user said before this message, oldest first. */
  earlier: string[];
}

interface MemoryFile {
  version: 1;
  conversations: Record<string, Conversation>;
}

function isConversation(value: unknown): value is Conversation {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Partial<Conversation>;
  return (
    typeof c.turns === 'number' &&
    Number.isInteger(c.turns) &&
    c.turns > 0 &&
    Array.isArray(c.messages) &&
    c.messages.every((m) => typeof m === 'string') &&
    typeof c.updatedAt === 'string'
  );
}

/** Reads the file; anything unreadable or malformed yields an empty map (entries are checked one by one). */
async function load(file: string): Promise<Map<string, Conversation>> {
  const conversations = new Map<string, Conversation>();
  const parsed = await readJson(file); // missing or corrupt: start fresh
  const stored = (parsed as Partial<MemoryFile> | null)?.conversations;
  if (typeof stored !== 'object' || stored === null) return conversations;
  const valid = Object.entries(stored).filter((entry): entry is [string, Conversation] => isConversation(entry[1]));
  valid.sort(([, a], [, b]) => a.updatedAt.localeCompare(b.updatedAt)); // oldest first, like use order
  for (const [contextId, c] of valid.slice(-MAX_CONVERSATIONS)) {
    conversations.set(contextId, { ...c, messages: c.messages.slice(-MAX_MESSAGES) });
  }
  return conversations;
}

/** File-backed conversation memory. Create it with {@link Memory.open}; call {@link Memory.flush} before exit. */
export class Memory {
  /** Kept in use order: the least recently used conversation comes first. */
  readonly #conversations: Map<string, Conversation>;
  readonly #file: JsonFile;

  private constructor(
    readonly file: string,
    conversations: Map<string, Conversation>,
  ) {
    this.#conversations = conversations;
    this.#file = new JsonFile(file, (): MemoryFile => ({ version: 1, conversations: Object.fromEntries(this.#conversations) }));
  }

  /** Loads `file` (creating its folder); a missing or corrupt file starts an empty memory. */
  static async open(file: string): Promise<Memory> {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 }); // the user's own: conversations are private
    return new Memory(file, await load(file));
  }

  /** Records a user message in `contextId` and returns which turn it is and what came before. */
  remember(contextId: string, text: string): TurnRecord {
    const previous = this.#conversations.get(contextId);
    const earlier = previous?.messages ?? [];
    const turn = (previous?.turns ?? 0) + 1;
    this.#conversations.delete(contextId); // re-insert at the end: most recently used
    this.#conversations.set(contextId, {
      turns: turn,
      messages: [...earlier, text].slice(-MAX_MESSAGES),
      updatedAt: new Date().toISOString(),
    });
    for (const oldest of this.#conversations.keys()) {
      if (this.#conversations.size <= MAX_CONVERSATIONS) break;
      this.#conversations.delete(oldest);
    }
    this.#file.changed();
    return { turn, earlier: [...earlier] };
  }

  /** Drops everything remembered about `contextId`. */
  forget(contextId: string): void {
    if (this.#conversations.delete(contextId)) this.#file.changed();
  }

  /** Resolves once every change so far is on disk. */
  flush(): Promise<void> {
    return this.#file.flush();
  }
}
