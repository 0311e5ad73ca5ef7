import { didYouMean } from '../../core/suggest.js';

/** What `/help` shows: the chat's own commands. */
export const CHAT_COMMANDS = `Commands:
  /attach PATH   send a file with your next message
  /save DIR      write the last reply's files (and data parts) into DIR, never overwriting
  /usage         the last turn's usage and this chat's sum, as the agent reported them
  /help          this list
  /quit, /exit   leave (so do Ctrl-C at the prompt and the end of input)
  //text         send a line that starts with a slash ("/text")
Ctrl-C during a reply leaves it (CancelTask for the task the agent named; it says what it left).`;

/** The chat's own commands, for "did you mean". */
export const SLASH_COMMANDS = ['/attach', '/save', '/usage', '/help', '/quit', '/exit'];

/** What the chat says of a `/word` that is no command: the nearest command, and how to send the line as it is. */
export function unknownCommand(line: { word: string; line: string }): string {
  const hint = `/help lists them; //${line.line.slice(1)} sends the line as it is`;
  return `unknown command ${line.word}${didYouMean(line.word, SLASH_COMMANDS)}: ${hint}`;
}

/** What one line typed into the chat asks for. */
export type ChatLine =
  /** Nothing (a blank line): skipped. */
  | { kind: 'blank' }
  /** `/quit` or `/exit`. */
  | { kind: 'quit' }
  /** `/help`. */
  | { kind: 'help' }
  /** `/usage`. */
  | { kind: 'usage' }
  /** `/attach PATH` (`argument` empty when no path was given). */
  | { kind: 'attach'; argument: string }
  /** `/save DIR` (`argument` empty when no directory was given). */
  | { kind: 'save'; argument: string }
  /** A `/word` that is no command: `line` is the whole line, trimmed. */
  | { kind: 'unknown'; word: string; line: string }
  /** A message to send (`//text` sends `/text`). */
  | { kind: 'message'; text: string };

/** Reads one line of the chat's input: a command, or the message to send. */
export function readChatLine(line: string): ChatLine {
  const text = line.trim();
  if (text === '/quit' || text === '/exit') return { kind: 'quit' };
  if (text === '') return { kind: 'blank' };
  if (text === '/help') return { kind: 'help' };
  if (text === '/usage') return { kind: 'usage' };
  const word = text.split(/\s/, 1)[0]!;
  if (word === '/attach' || word === '/save') {
    return { kind: word === '/attach' ? 'attach' : 'save', argument: text.slice(word.length).trim() };
  }
  if (text.startsWith('//')) return { kind: 'message', text: text.slice(1) };
  if (text.startsWith('/')) return { kind: 'unknown', word, line: text };
  return { kind: 'message', text };
}
