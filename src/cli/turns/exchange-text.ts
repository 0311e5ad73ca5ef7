import type { HistoryExchange, UserMessage } from '../../node/index.js';
import { attachmentLine } from './attachments.js';
import type { Io } from '../core/io.js';
import { terminalText } from '../output/terminal-text.js';

/**
 * What the person said, as the agent kept it: `you: …`, then a line per file or data part of theirs.
 * The agent keeps it, so it may say anything: each line is sanitized for the terminal.
 */
export function userLines(message: UserMessage): string[] {
  return [`you: ${terminalText(message.text)}`, ...(message.attachments ?? []).map(attachmentLine)];
}

/**
 * One past exchange as a person reads it, a line each: what they said (`you: …`) and their files,
 * the reply and its files, then the outcome (`[completed]`, `[working]`…). `a4h history` prints these;
 * `a4h chat` shows the last few, dimmed, when it starts. Every line is sanitized for the terminal.
 */
export function exchangeLines(exchange: HistoryExchange): string[] {
  const lines: string[] = [];
  if (exchange.user.length === 0) lines.push('you: (the agent kept no message of yours)');
  for (const said of exchange.user) lines.push(...userLines(said));
  if (exchange.reply !== '') lines.push(exchange.reply);
  for (const attachment of exchange.attachments ?? []) lines.push(attachmentLine(attachment));
  lines.push(exchange.error === undefined ? `[${exchange.outcome ?? exchange.state}]` : `[not shown: ${exchange.error.message}]`);
  return lines.map(terminalText);
}

/** Lines written to stderr dimmed (when stderr is a terminal without NO_COLOR; plain otherwise): what was said before. */
export function dimLines(io: Io, lines: readonly string[]): void {
  for (const line of lines) io.err.write(`${io.style.dim(line)}\n`);
}
