/**
 * The demo agent as a behaviour on the agent kit (fixtures/): remember the message, then stream the
 * answer word by word on one artifact. The kit's v1.0 and v0.3 executors publish it in their shapes.
 */
import type { AgentScript, ArtifactOptions, Turn } from '../fixtures/turn.js';
import { answerForm, demoSurfaces, drawForm, formActionOf, type DemoSurfaces, type FormAction } from './a2ui.js';
import type { Memory } from './memory.js';
import {
  ATTACHMENT,
  CANCELED_REPLY,
  FORGET_REPLY,
  answeredReply,
  askQuestion,
  attachReply,
  chatReply,
  chunkWords,
  echoReply,
  intentOf,
  slowReply,
} from './reply.js';

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
 * One turn: Task(submitted) → working → the answer as word chunks on the `answer` artifact → completed;
 * an `ask` turn ends input-required with a question, and the answer to it finishes that task. An
 * `attach` turn's last chunk also carries {@link ATTACHMENT} as a raw-bytes file part, an `echo`
 * turn's the user's own files and data parts, unchanged. A `form` turn draws a form, and a message
 * holding an action on it is answered on it (a2ui.ts). A cancel or
 * the agent's close stops it between words (the kit's `sleep` throws); nothing is published after that.
 */
async function converse(t: Turn, settings: DemoSettings, surfaces: DemoSurfaces): Promise<void> {
  const action = formActionOf(t);
  if (action) return formAction(t, action, settings, surfaces);
  // Only the answer to an `ask` question continues a task: the task waits for nothing else.
  if (t.followUp) return finishAsked(t, settings);
  t.task('submitted');
  const { contextId } = t;
  const intent = intentOf(t.text);
  if (intent === 'ask') return ask(t, settings);
  if (intent === 'form') return form(t, settings, surfaces);
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
  const file = intent === 'attach' ? { file: ATTACHMENT } : intent === 'echo' ? { files: t.files, data: t.data } : {};
  await streamAnswer(t, answer, delayMs, file);
  t.status('completed');
}

/** The answer as word chunks on the `answer` artifact, `lastFile`'s parts on the last one. */
async function streamAnswer(t: Turn, answer: string, delayMs: number, lastFile: ArtifactOptions): Promise<void> {
  const chunks = chunkWords(answer);
  for (const [i, chunk] of chunks.entries()) {
    await t.sleep(delayMs);
    const lastChunk = i === chunks.length - 1;
    t.artifact('answer', chunk, { append: i > 0, lastChunk }, { name: 'answer', ...(lastChunk ? lastFile : {}) });
  }
}

/** An `ask` turn: remembered, then a question back; the task waits, input-required, for the answer. */
async function ask(t: Turn, settings: DemoSettings): Promise<void> {
  const record = settings.memory.remember(t.contextId, t.text.trim());
  settings.log?.(`${shortId(t.contextId)} turn ${record.turn} (ask)`);
  t.status('working');
  await t.sleep(settings.chunkDelayMs);
  t.status('input-required', askQuestion(t.text));
}

/** A `form` turn: remembered, then the form drawn. */
async function form(t: Turn, settings: DemoSettings, surfaces: DemoSurfaces): Promise<void> {
  const record = settings.memory.remember(t.contextId, t.text.trim());
  settings.log?.(`${shortId(t.contextId)} turn ${record.turn} (form)`);
  await drawForm(t, surfaces, settings.chunkDelayMs);
}

/** A form's action, on a task of its own (or on the task it names): answered on the form, the choice remembered. */
async function formAction(t: Turn, action: FormAction, settings: DemoSettings, surfaces: DemoSurfaces): Promise<void> {
  if (t.followUp) t.resumed();
  else t.task('submitted');
  const choice = await answerForm(t, action, surfaces, settings.chunkDelayMs);
  if (choice === undefined) {
    settings.log?.(`${shortId(t.contextId)} action refused: not our surface`);
    return;
  }
  const record = settings.memory.remember(t.contextId, `(chose ${choice})`);
  settings.log?.(`${shortId(t.contextId)} turn ${record.turn} (form action)`);
}

/**
 * The answer to an `ask` question, on the same task, the way an agent on @a2a-js/sdk 1.x answers a
 * follow-up: the task as it was first (still input-required), then working, the reply quoting the
 * answer, completed.
 */
async function finishAsked(t: Turn, settings: DemoSettings): Promise<void> {
  t.resumed();
  const said = t.text.trim() === '' ? '(an empty message)' : t.text.trim();
  const record = settings.memory.remember(t.contextId, said);
  settings.log?.(`${shortId(t.contextId)} turn ${record.turn} (answer)`);
  t.status('working');
  await streamAnswer(t, answeredReply(said, record), settings.chunkDelayMs, {});
  t.status('completed');
}

/** The demo agent's script: {@link converse} per message; a cancel is logged and says {@link CANCELED_REPLY}. */
export function demoScript(settings: DemoSettings): AgentScript {
  const surfaces = demoSurfaces();
  return {
    behaviour: (turn) => converse(turn, settings, surfaces),
    cancelMessage: CANCELED_REPLY,
    onCancel: (contextId) => settings.log?.(`${shortId(contextId)} canceled`),
  };
}
