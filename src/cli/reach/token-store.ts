import { chmodSync, closeSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { currentOwner, notOwnProblem, type Owner } from './config/owner.js';
import { configDir } from './config/paths.js';

/** A token `auth login` obtained, as stored: never printed. */
export interface StoredToken {
  accessToken: string;
  tokenType: string;
  /** Milliseconds since the epoch; absent when the server gave no lifetime. */
  expiresAt?: number;
  /** `client_credentials` or `device_code`. */
  flow: string;
  /** The token endpoint it came from. */
  tokenUrl: string;
}

/** The tokens file: `<config dir>/tokens.json`, mode 0600 in a 0700 directory. */
export function tokensFile(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'tokens.json');
}

/** The key tokens are stored under: the agent's origin (credentials are scoped by origin). */
export function tokenKey(agent: string): string {
  return new URL(agent).origin;
}

function readAll(path: string): Record<string, StoredToken> {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, StoredToken>) : {};
  } catch {
    return {};
  }
}

/**
 * The token stored for the agent's origin, if any (expired or not: the caller decides). A tokens file
 * that is not the person's own (another user's, one others may write, a link another user made) is
 * not read: its token would send the person's messages under somebody else's account. Why goes to
 * `warnings`.
 */
export function storedToken(
  env: NodeJS.ProcessEnv,
  agent: string,
  warnings: string[] = [],
  owner: Owner = currentOwner(),
): StoredToken | undefined {
  let key: string;
  try {
    key = tokenKey(agent);
  } catch {
    return undefined;
  }
  const path = tokensFile(env);
  const problem = notOwnFile(path, owner);
  if (problem !== undefined) {
    warnings.push(`${path} is not read: ${problem}, so its tokens are not sent`);
    return undefined;
  }
  const token = readAll(path)[key];
  return token !== undefined && typeof token.accessToken === 'string' && token.accessToken !== '' ? token : undefined;
}

/** Why the file at `path` is not the person's own (the file through a link, and the link); undefined when it is, or is not there. */
function notOwnFile(path: string, owner: Owner): string | undefined {
  let fd: number | undefined;
  try {
    const entry = lstatSync(path);
    if (entry.isSymbolicLink() && owner.uid !== undefined && entry.uid !== owner.uid) {
      return `it is a link another user made (uid ${entry.uid}), not you (uid ${owner.uid})`;
    }
    fd = openSync(path, 'r');
    return notOwnProblem(owner, fstatSync(fd), 'file');
  } catch {
    return undefined; // not there, or not readable: readAll finds no tokens
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Stores (or, with `undefined`, removes) the agent origin's token: the config dir made 0700 (an
 * existing one too), the file written whole to a temporary file created with mode 0600, then renamed
 * over the old one, so it is never readable by others, not even for a moment. Returns the file's path.
 */
export function storeToken(env: NodeJS.ProcessEnv, agent: string, token: StoredToken | undefined): string {
  const path = tokensFile(env);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  chmodSync(dirname(path), 0o700); // mkdir's mode applies to a folder it makes, not to one that was there (a 0755 ~/.config/a4h)
  const all = readAll(path);
  if (token === undefined) delete all[tokenKey(agent)];
  else all[tokenKey(agent)] = token;
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600); // the umask cannot widen it, but an existing file kept its mode
  renameSync(temporary, path);
  return path;
}
