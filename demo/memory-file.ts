/**
 * Where the demo agent keeps its memory by default: one file per user and per checkout, so two
 * clones on one machine (or two people on it) never share a conversation.
 *
 *     <tmpdir>/a4h-demo-agent-<user>/memory-<hash of the checkout's path>.json
 *
 * The folder is the user's own (created with mode 0700 by {@link Memory.open}).
 */
import { createHash } from 'node:crypto';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This checkout: the folder above `demo/` (or above `dist/demo/` once built). */
export const CHECKOUT = resolve(fileURLToPath(new URL('.', import.meta.url)), import.meta.url.includes('/dist/demo/') ? '../..' : '..');

/** The user's name, safe in a file name; the uid (or "user") when the system gives no name. */
export function currentUser(): string {
  let name: string;
  try {
    name = userInfo().username;
  } catch {
    name = process.env['USER'] || process.env['USERNAME'] || String(process.getuid?.() ?? 'user');
  }
  return name.replace(/[^A-Za-z0-9._-]/g, '_') || 'user';
}

/** The default memory file of `user` for the checkout at `checkout`. */
export function defaultMemoryFile(checkout: string = CHECKOUT, user: string = currentUser()): string {
  const id = createHash('sha256').update(resolve(checkout)).digest('hex').slice(0, 16);
  return join(tmpdir(), `a4h-demo-agent-${user}`, `memory-${id}.json`);
}
