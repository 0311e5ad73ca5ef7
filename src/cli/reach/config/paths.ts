import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { currentOwner, notOwnProblem, statIfPresent, type Owner } from './owner.js';

/**
 * The conventional configuration directory: `$XDG_CONFIG_HOME/a4h`, else `~/.config/a4h` (`HOME` from
 * the environment the command runs in, so tests and users can point it elsewhere).
 */
export function configDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg !== undefined && xdg !== '') return join(xdg, 'a4h');
  return join(env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir(), '.config', 'a4h');
}

/** The global configuration file: `<config dir>/.env`. */
export function globalFile(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), '.env');
}

/**
 * The name an agent's own settings go under: its host, and its port when the URL names one
 * (`agent.example.com`, `127.0.0.1_41241`). A plain `http:` URL without a port is `HOST_80`: the
 * file written for `https://HOST` (its credentials) never applies to `http://HOST`, where they would
 * go in clear. Undefined for a URL that does not parse.
 */
export function agentScope(agent: string): string | undefined {
  try {
    const url = new URL(agent);
    const host = url.hostname.replace(/^\[|\]$/g, '').replace(/[^A-Za-z0-9.-]/g, '_');
    const port = url.port !== '' ? url.port : url.protocol === 'http:' ? '80' : '';
    return port === '' ? host : `${host}_${port}`;
  } catch {
    return undefined;
  }
}

/** The global file of one agent's settings: `<config dir>/agents/<scope>.env`. */
export function agentFile(env: NodeJS.ProcessEnv, agent: string): string | undefined {
  const scope = agentScope(agent);
  return scope === undefined ? undefined : join(configDir(env), 'agents', `${scope}.env`);
}

/** Where the walk for the local `.env` stopped, and why (for the warning about a file beyond it). */
export interface LocalFile {
  /** The nearest `.env` up from the working directory, inside the walk's bounds. */
  path?: string;
  /** The nearest `.env` beyond the bounds (never read as a local file), and what bounded the walk. */
  beyond?: { path: string; bound: string };
}

/**
 * The local file: the nearest `.env` walking up from `cwd` (as git finds its own), not the global one.
 * The walk stays in what the person can vouch for: it stops at the project's root (the first folder
 * holding `.git`), at their home folder, and before a folder they do not own (a shared parent's
 * `.env` is somebody else's). The nearest `.env` beyond that is named, so a warning can say why it
 * is not read.
 */
export function localFile(cwd: string, env: NodeJS.ProcessEnv, owner: Owner = currentOwner()): LocalFile {
  const global = globalFile(env);
  const home = resolve(env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir());
  let bound: string | undefined;
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (bound === undefined) {
      const stats = statIfPresent(dir);
      if (stats !== undefined && notOwnProblem(owner, stats, 'folder') !== undefined) bound = `${dir} is a folder you do not own`;
    }
    const candidate = join(dir, '.env');
    if (candidate !== global && statIfPresent(candidate)?.isFile()) {
      return bound === undefined ? { path: candidate } : { beyond: { path: candidate, bound } };
    }
    if (bound === undefined && existsSync(join(dir, '.git'))) bound = `the project's root is ${dir} (it holds .git)`;
    else if (bound === undefined && dir === home) bound = `your home folder is ${dir}`;
    if (dirname(dir) === dir) return {};
  }
}
