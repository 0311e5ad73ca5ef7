import { A2AError } from '../../errors.js';
import { callerIdProblem } from '../request.js';

/**
 * Where a thread's history goes on: the agent's page (its token, absent for the first page, and the
 * page size it was asked with, so the page is the same one), how many of the thread's tasks on it
 * were already shown, and the last of them (found again, it marks the place even when newer tasks
 * moved the page's contents).
 */
export interface HistoryCursor {
  /** The agent's `pageToken` of the page; absent: the first page. */
  token?: string;
  /** The page size that page was asked with. */
  size: number;
  /** The thread's tasks on that page already shown. */
  offset: number;
  /** The id of the last of them, when any was. */
  anchor?: string;
}

const PREFIX = 'h1.';
/** The longest cursor taken back: an agent's token is short (the SDK's is some 80 characters). */
const MAX_CURSOR_CHARS = 4096;
const MAX_TOKEN_CHARS = 2048;

/** The cursor as an opaque string a caller keeps (URL-safe: base64url of a small JSON object). */
export function encodeCursor(cursor: HistoryCursor): string {
  const json = JSON.stringify({ t: cursor.token, s: cursor.size, o: cursor.offset, a: cursor.anchor });
  let binary = '';
  for (const byte of new TextEncoder().encode(json)) binary += String.fromCharCode(byte);
  return PREFIX + btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A cursor a caller handed back, checked: anything but one {@link encodeCursor} could have made is an `input` error. */
export function decodeCursor(before: unknown): HistoryCursor {
  if (typeof before !== 'string' || before.length > MAX_CURSOR_CHARS || !before.startsWith(PREFIX)) throw notACursor();
  let fields: { t?: unknown; s?: unknown; o?: unknown; a?: unknown };
  try {
    const binary = atob(before.slice(PREFIX.length).replace(/-/g, '+').replace(/_/g, '/'));
    const json = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    fields = JSON.parse(json) as typeof fields;
  } catch {
    throw notACursor();
  }
  if (typeof fields !== 'object' || fields === null) throw notACursor();
  const { t, s, o, a } = fields;
  if (t !== undefined && !(typeof t === 'string' && t !== '' && t.length <= MAX_TOKEN_CHARS && !/[\u0000-\u001f\u007f]/.test(t))) {
    throw notACursor();
  }
  if (!Number.isInteger(s) || (s as number) < 1 || (s as number) > 100) throw notACursor();
  if (!Number.isInteger(o) || (o as number) < 0 || (o as number) > 100_000) throw notACursor();
  if (a !== undefined && (typeof a !== 'string' || callerIdProblem(a) !== undefined)) throw notACursor();
  return { ...(t === undefined ? {} : { token: t }), size: s as number, offset: o as number, ...(a === undefined ? {} : { anchor: a }) };
}

function notACursor(): A2AError {
  return new A2AError({ kind: 'input', operation: 'list-tasks', message: 'before must be a cursor a history page handed out' });
}
