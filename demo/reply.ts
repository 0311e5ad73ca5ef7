/**
 * What the demo agent says: the answer text for a turn, and how it is cut into streamed chunks.
 * Every answer contains `turn N` in lower case, so a reader (or a test) can see the count.
 */
import type { Attachment } from '../fixtures/turn.js';
import { barChartPng } from './chart.js';
import type { TurnRecord } from './memory.js';

/** How many earlier messages an answer quotes. */
const QUOTED = 3;
/** Longest quote, in characters (longer ones end with `…`). */
const QUOTE_LENGTH = 60;

/** What the user asked for, decided by the message text. */
export type Intent = 'chat' | 'slow' | 'forget' | 'attach' | 'echo' | 'ask' | 'form';

/**
 * `forget` (the whole message) clears the conversation; a first word `slow` streams slowly; a first
 * word `attach` adds a small chart (a PNG) to the answer; a first word `echo` sends the message's
 * files and data back unchanged; a first word `ask` makes the agent ask a question back (the task
 * waits, input-required, for the answer); a first word `form` draws a small form (an A2UI surface,
 * a2ui.ts); anything else chats.
 */
export function intentOf(text: string): Intent {
  const words = text.trim().toLowerCase().split(/\s+/);
  if (words.length === 1 && words[0] === 'forget') return 'forget';
  if (words[0] === 'slow') return 'slow';
  if (words[0] === 'attach') return 'attach';
  if (words[0] === 'echo') return 'echo';
  if (words[0] === 'ask') return 'ask';
  if (words[0] === 'form') return 'form';
  return 'chat';
}

/**
 * The question of an `ask` turn: the words after `ask`, as a question (`ask what colour` → “what
 * colour?”), or the agent's own when there are none.
 */
export function askQuestion(text: string): string {
  const rest = text
    .trim()
    .replace(/^\S+\s*/, '')
    .replace(/[?.!\s]+$/, '');
  const question = rest === '' ? 'what should I call you?' : `${rest}?`;
  return `Happy to — first a question: ${question} Answer in this thread and I'll finish this task with it.`;
}

/** The answer that finishes an `ask` task: the user's answer quoted, then the usual chat answer. */
export function answeredReply(text: string, record: TurnRecord): string {
  return `Thanks — you answered ${quote(text)}, and this task is done. ${chatReply(text, record)}`;
}

/** `“text”`, on one line, cut to {@link QUOTE_LENGTH} characters. */
export function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const short = line.length > QUOTE_LENGTH ? `${line.slice(0, QUOTE_LENGTH - 1).trimEnd()}…` : line;
  return `“${short}”`;
}

/** The answer to a chat turn: a greeting on turn 1, afterwards the count and what was said before. */
export function chatReply(text: string, { turn, earlier }: TurnRecord): string {
  if (turn === 1 || earlier.length === 0) {
    const greeting = turn === 1 ? 'Hello! ' : '';
    return (
      `${greeting}This is turn ${turn} of our conversation. ` +
      "I'll remember what you say — restart everything and come back with the same thread."
    );
  }
  const recent = earlier.slice(-QUOTED).map(quote).join(', ');
  return `This is turn ${turn} of our conversation; earlier you said: ${recent}. You just said: ${quote(text)}.`;
}

/** The answer to a `slow` turn: a short warning, then the usual chat answer. */
export function slowReply(text: string, record: TurnRecord): string {
  return `Taking it slowly, one word at a time, so you can cancel me. ${chatReply(text, record)}`;
}

/** A file the agent sends as raw bytes: its name, media type and content. */
export type { Attachment };

/**
 * The file of an `attach` answer: a small bar chart (a 160×100 PNG), sent as raw bytes (base64 on
 * the wire), so a client decodes a byte part — the path where the official SDK needs the global `Buffer`.
 */
export const ATTACHMENT: Attachment = {
  filename: 'a4h-chart.png',
  mediaType: 'image/png',
  bytes: barChartPng([3, 5, 2, 8, 6, 4]),
};

/** The answer to an `attach` turn: a note about the file, then the usual chat answer. */
export function attachReply(text: string, record: TurnRecord): string {
  return `Here is a small chart for you: ${ATTACHMENT.filename} (${ATTACHMENT.bytes.length} bytes). ${chatReply(text, record)}`;
}

/** The answer to an `echo` turn: what comes back, then the usual chat answer. */
export function echoReply(text: string, record: TurnRecord, files: readonly Attachment[], data: readonly unknown[]): string {
  const sent = files.length + data.length;
  const what =
    sent === 0
      ? 'Nothing to echo: attach a file.'
      : `Echoing ${files.map((f) => f.filename || 'a file').join(', ')}${data.length ? `${files.length ? ' and ' : ''}${data.length} data part(s)` : ''} back to you, unchanged.`;
  return `${what} ${chatReply(text, record)}`;
}

/** The answer to `forget`. */
export const FORGET_REPLY = "Done — I've forgotten this conversation. Your next message will be turn 1 again.";

/** The message on a canceled task's last status. */
export const CANCELED_REPLY = 'Canceled — I stopped mid-sentence.';

/** Splits an answer into word chunks that concatenate back to it (`'a b'` → `['a ', 'b']`). */
export function chunkWords(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [text];
}
