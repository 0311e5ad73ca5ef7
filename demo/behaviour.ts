/**
 * The demo agent as a behaviour on the agent kit (fixtures/): remember the message, then stream the
 * answer word by word on one artifact. The kit's v1.0 and v0.3 executors publish it in their shapes.
 */
import type { AgentScript, Turn } from '../fixtures/turn.js';
import type { Memory } from './memory.js';
import { ATTACHMENT, CANCELED_REPLY, FORGET_REPLY, attachReply, chatReply, chunkWords, echoReply, intentOf, slowReply } from './reply.js';

/** What the demo behaviour needs. */
export interface DemoSettings {
  memory: Memory;
  /** Pause before each chunk of an ordinary answer. */
  chunkDelayMs: number;
  /** Pause before each chunk of a `slow` answer. */
  slowChunkDelayMs: number;
  /** Gets one short line per turn and per cancel. */
  log?: (line: string) => void;
}

/** A short, log-friendly prefix of a contextId. */
export const shortId = (contextId: string): string => contextId.slice(0, 8);

/**
 * One turn: Task(submitted) → working → the answer as word chunks on the `answer` artifact → completed.
 * An `attach` turn's last chunk also carries {@link ATTACHMENT} as a raw-bytes file part, an `echo`
 * turn's the user's own files and data parts, unchanged. A cancel or
 * the agent's close stops it between words (the kit's `sleep` throws); nothing is published after that.
 */
async function converse(t: Turn, settings: DemoSettings): Promise<void> {
  t.task('submitted');
  const { contextId } = t;
  const intent = intentOf(t.text);
  let answer = FORGET_REPLY;
  let delayMs = settings.chunkDelayMs;
  if (intent === 'forget') {
    settings.memory.forget(contextId);
    settings.log?.(`${shortId(contextId)} forgotten`);
  } else {
    const said = t.text.trim() === '' ? '(an empty message)' : t.text.trim();
    const record = settings.memory.remember(contextId, said);
    settings.log?.(`${shortId(contextId)} turn ${record.turn}${intent === 'chat' ? '' : ` (${intent})`}`);
    answer =
      intent === 'slow'
        ? slowReply(said, record)
        : intent === 'attach'
          ? attachReply(said, record)
          : intent === 'echo'
            ? echoReply(said, record, t.files, t.data)
            : chatReply(said, record);
    if (intent === 'slow') delayMs = settings.slowChunkDelayMs;
  }
  t.status('working');
  const chunks = chunkWords(answer);
  for (const [i, chunk] of chunks.entries()) {
    await t.sleep(delayMs);
    const lastChunk = i === chunks.length - 1;
    const file = !lastChunk ? {} : intent === 'attach' ? { file: ATTACHMENT } : intent === 'echo' ? { files: t.files, data: t.data } : {};
    t.artifact('answer', chunk, { append: i > 0, lastChunk }, { name: 'answer', ...file });
  }
  t.status('completed');
}

/** The demo agent's script: {@link converse} per message; a cancel is logged and says {@link CANCELED_REPLY}. */
export function demoScript(settings: DemoSettings): AgentScript {
  return {
    behaviour: (turn) => converse(turn, settings),
    cancelMessage: CANCELED_REPLY,
    onCancel: (contextId) => settings.log?.(`${shortId(contextId)} canceled`),
  };
}
