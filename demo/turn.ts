/**
 * One turn of the demo agent, independent of the protocol version: remember the message, then
 * stream the answer word by word. The v1.0 and v0.3 executors only translate its events into
 * their SDK's shapes. Also here: the registry that lets CancelTask and `close()` stop turns.
 */
import type { Memory } from './memory.js';
import { ATTACHMENT, FORGET_REPLY, attachReply, chatReply, chunkWords, intentOf, slowReply } from './reply.js';
import type { Attachment } from './reply.js';

/** Task states a turn goes through (v0.3 spelling; the v1.0 executor maps them to its enum). */
export type TurnState = 'submitted' | 'working' | 'completed' | 'canceled';

/** Where a turn publishes its events. */
export interface TurnOutput {
  /** The Task itself (always the first event). */
  task(state: TurnState): void;
  /** A status update. */
  status(state: TurnState): void;
  /** One piece of the answer artifact; `file`, if given, goes on it as a raw-bytes part after the text. */
  chunk(artifactId: string, text: string, append: boolean, lastChunk: boolean, file?: Attachment): void;
}

/** What a turn needs from the agent. */
export interface TurnSettings {
  memory: Memory;
  /** Pause before each chunk of an ordinary answer. */
  chunkDelayMs: number;
  /** Pause before each chunk of a `slow` answer. */
  slowChunkDelayMs: number;
  log?: (line: string) => void;
}

/** Thrown out of a turn that was cancelled or whose agent closed. */
export class TurnStopped extends Error {
  constructor() {
    super('turn stopped');
    this.name = 'TurnStopped';
  }
}

/** Waits `ms`, or rejects with {@link TurnStopped} as soon as `signal` aborts (and clears the timer). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new TurnStopped());
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new TurnStopped());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A short, log-friendly prefix of a contextId. */
export const shortId = (contextId: string): string => contextId.slice(0, 8);

/**
 * Runs one turn: Task(submitted) → working → the answer as word chunks on one artifact → completed.
 * An `attach` turn's last chunk also carries {@link ATTACHMENT} as a raw-bytes file part.
 * Throws {@link TurnStopped} when `signal` aborts; nothing is published after that.
 */
export async function runTurn(
  contextId: string,
  text: string,
  out: TurnOutput,
  settings: TurnSettings,
  signal: AbortSignal,
): Promise<void> {
  const live = (): void => {
    if (signal.aborted) throw new TurnStopped();
  };
  live();
  out.task('submitted');
  const intent = intentOf(text);
  let answer = FORGET_REPLY;
  let delayMs = settings.chunkDelayMs;
  if (intent === 'forget') {
    settings.memory.forget(contextId);
    settings.log?.(`${shortId(contextId)} forgotten`);
  } else {
    const said = text.trim() === '' ? '(an empty message)' : text.trim();
    const record = settings.memory.remember(contextId, said);
    settings.log?.(`${shortId(contextId)} turn ${record.turn}${intent === 'chat' ? '' : ` (${intent})`}`);
    answer = intent === 'slow' ? slowReply(said, record) : intent === 'attach' ? attachReply(said, record) : chatReply(said, record);
    if (intent === 'slow') delayMs = settings.slowChunkDelayMs;
  }
  out.status('working');
  const chunks = chunkWords(answer);
  for (const [i, chunk] of chunks.entries()) {
    await sleep(delayMs, signal);
    live();
    const last = i === chunks.length - 1;
    if (last && intent === 'attach') out.chunk('answer', chunk, i > 0, last, ATTACHMENT);
    else out.chunk('answer', chunk, i > 0, last);
  }
  live();
  out.status('completed');
}

/** How many tasks {@link RunningTurns} remembers (for a cancel that arrives after the turn ended). */
const MAX_TRACKED_TASKS = 10_000;

/**
 * The turns an executor is running, by taskId: CancelTask stops one, `stopAll()` (on close) stops
 * every one. A task's contextId is kept after its turn ends, so a late cancel can still name it.
 */
export class RunningTurns {
  readonly #lifetime = new AbortController();
  readonly #tasks = new Map<string, { contextId: string; stop?: AbortController }>();

  /** Starts tracking `taskId`; returns the signal the turn must watch and `done()` for when it returns. */
  begin(taskId: string, contextId: string): { signal: AbortSignal; done(): void } {
    const stop = new AbortController();
    const entry: { contextId: string; stop?: AbortController } = { contextId, stop };
    this.#tasks.delete(taskId);
    this.#tasks.set(taskId, entry);
    const oldest = this.#tasks.keys().next().value;
    if (this.#tasks.size > MAX_TRACKED_TASKS && oldest !== undefined) this.#tasks.delete(oldest);
    return {
      signal: AbortSignal.any([this.#lifetime.signal, stop.signal]),
      done: () => {
        if (entry.stop === stop) delete entry.stop;
      },
    };
  }

  /** Stops the turn of `taskId` if it is running; returns the task's contextId (`''` if unknown). */
  cancel(taskId: string): string {
    const entry = this.#tasks.get(taskId);
    entry?.stop?.abort();
    return entry?.contextId ?? '';
  }

  /** Stops every running turn, now and for good. */
  stopAll(): void {
    this.#lifetime.abort();
  }
}
