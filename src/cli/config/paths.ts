import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

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
 * (`agent.example.com`, `127.0.0.1_41241`). Undefined for a URL that does not parse.
 */
export function agentScope(agent: string): string | undefined {
  try {
    const url = new URL(agent);
    const host = url.hostname.replace(/^\[|\]$/g, '').replace(/[^A-Za-z0-9.-]/g, '_');
    return url.port === '' ? host : `${host}_${url.port}`;
  } catch {
    return undefined;
  }
}

/** The global file of one agent's settings: `<config dir>/agents/<scope>.env`. */
export function agentFile(env: NodeJS.ProcessEnv, agent: string): string | undefined {
  const scope = agentScope(agent);
  return scope === undefined ? undefined : join(configDir(env), 'agents', `${scope}.env`);
}

/** The local file: the nearest `.env` walking up from `cwd` (as git finds its own), not the global one. */
export function localFile(cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  const global = globalFile(env);
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const candidate = join(dir, '.env');
    if (candidate !== global && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}
