import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { configDir } from '../config/paths.js';

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

/** The token stored for the agent's origin, if any (expired or not: the caller decides). */
export function storedToken(env: NodeJS.ProcessEnv, agent: string): StoredToken | undefined {
  let key: string;
  try {
    key = tokenKey(agent);
  } catch {
    return undefined;
  }
  const token = readAll(tokensFile(env))[key];
  return token !== undefined && typeof token.accessToken === 'string' && token.accessToken !== '' ? token : undefined;
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
