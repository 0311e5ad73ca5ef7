import { readFileSync, statSync } from 'node:fs';
import { parseDotenv } from './dotenv.js';
import { agentFile, globalFile, localFile } from './paths.js';
import { resolveSettings, SETTINGS, type Layer, type Resolved } from './settings.js';

/** What configuration a command runs with: each setting resolved, the files read, and what to warn about. */
export interface Configuration {
  resolved: Resolved[];
  /** The files looked for, in precedence order: whether each was found. */
  files: { role: 'local' | 'agent' | 'global'; path: string; found: boolean }[];
  /** One sentence each, for stderr: a file holding a credential readable by others, a line not understood, a key not known. */
  warnings: string[];
}

/** Where the configuration comes from. */
export interface ConfigurationSources {
  /** The values the flags gave, by variable (`A2ACLI_BEARER` → the `--bearer` value). */
  flags: ReadonlyMap<string, string | readonly string[]>;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The agent URL the command talks to, for its own global file. */
  agent?: string;
  /** `--config FILE`: read in place of the local `.env`; it must exist. */
  configFile?: string;
  /** Layers below the files (the token `auth login` stored), highest first. */
  below?: readonly Layer[];
}

/** A `--config FILE` that cannot be read. */
export class ConfigFileError extends Error {
  override readonly name = 'ConfigFileError';
}

const KNOWN = new Set(SETTINGS.map((setting) => setting.variable));
const SECRETS = new Set(SETTINGS.filter((setting) => setting.secret).map((setting) => setting.variable));

/** Reads the environment and the files and resolves every setting (flag → env → local → agent → global → default). */
export function loadConfiguration(sources: ConfigurationSources): Configuration {
  const warnings: string[] = [];
  const files: Configuration['files'] = [];
  const layers: Layer[] = [
    { source: 'flag', values: sources.flags },
    { source: 'environment', values: envValues(sources.env) },
  ];
  const local = sources.configFile ?? localFile(sources.cwd, sources.env);
  const agent = sources.agent === undefined ? undefined : agentFile(sources.env, sources.agent);
  const candidates: [Configuration['files'][number]['role'], string | undefined][] = [
    ['local', local],
    ['agent', agent],
    ['global', globalFile(sources.env)],
  ];
  for (const [role, path] of candidates) {
    if (path === undefined) continue;
    const text = readIfPresent(path, role === 'local' && sources.configFile !== undefined);
    files.push({ role, path, found: text !== undefined });
    if (text === undefined) continue;
    const parsed = parseDotenv(text);
    const values = new Map([...parsed.values].filter(([key]) => key.startsWith('A2ACLI_')));
    for (const line of parsed.badLines) warnings.push(`${path}:${line} is not KEY=value: ignored`);
    for (const key of values.keys()) if (!KNOWN.has(key)) warnings.push(`${path}: ${key} is not a setting a4h knows: ignored`);
    const secrets = [...values.keys()].filter((key) => SECRETS.has(key));
    if (secrets.length > 0 && readableByOthers(path)) {
      warnings.push(`${path} holds a credential (${secrets.join(', ')}) and others can read it: chmod 600 ${path}`);
    }
    layers.push({ source: `file ${path}`, values });
  }
  layers.push(...(sources.below ?? []));
  return { resolved: resolveSettings(layers), files, warnings };
}

/** The environment's `A2ACLI_*` variables that name a setting. */
function envValues(env: NodeJS.ProcessEnv): Map<string, string> {
  const values = new Map<string, string>();
  for (const key of KNOWN) {
    const value = env[key];
    if (value !== undefined) values.set(key, value);
  }
  return values;
}

function readIfPresent(path: string, required: boolean): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!required && (code === 'ENOENT' || code === 'ENOTDIR')) return undefined;
    throw new ConfigFileError(`cannot read the configuration file ${path}${code ? ` (${code})` : ''}`);
  }
}

/** True when the group or others may read the file (POSIX modes; Windows has none to check). */
function readableByOthers(path: string): boolean {
  if (process.platform === 'win32') return false;
  return (statSync(path).mode & 0o044) !== 0;
}

/** A resolved setting's value by flag name. */
export function valueOf(configuration: Configuration, flag: string): Resolved | undefined {
  return configuration.resolved.find((entry) => entry.setting.flag === flag);
}
