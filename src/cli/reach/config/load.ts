import { closeSync, fstatSync, lstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { parseDotenv } from './dotenv.js';
import { currentOwner, notOwnProblem, statIfPresent, type Owner } from './owner.js';
import { agentFile, configDir, globalFile, localFile } from './paths.js';
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
  /** Whose files may steer the settings (default: the user a4h runs as). */
  owner?: Owner;
}

/** A `--config FILE` that cannot be read. */
export class ConfigFileError extends Error {
  override readonly name = 'ConfigFileError';
}

const KNOWN = new Set(SETTINGS.map((setting) => setting.variable));
const SECRETS = new Set(SETTINGS.filter((setting) => setting.secret).map((setting) => setting.variable));
const ELSEWHERE_ONLY = new Set(SETTINGS.filter((setting) => !setting.fromProject).map((setting) => setting.variable));

/** Reads the environment and the files and resolves every setting (flag → env → local → agent → global → default). */
export function loadConfiguration(sources: ConfigurationSources): Configuration {
  const warnings: string[] = [];
  const files: Configuration['files'] = [];
  const owner = sources.owner ?? currentOwner();
  const layers: Layer[] = [
    { source: 'flag', values: sources.flags },
    { source: 'environment', values: envValues(sources.env) },
  ];
  const walked = sources.configFile === undefined ? localFile(sources.cwd, sources.env, owner) : {};
  const local = sources.configFile ?? walked.path;
  const agent = sources.agent === undefined ? undefined : agentFile(sources.env, sources.agent);
  const candidates: [Configuration['files'][number]['role'], string | undefined][] = [
    ['local', local],
    ['agent', agent],
    ['global', globalFile(sources.env)],
  ];
  if (walked.beyond !== undefined && holdsSettings(walked.beyond.path)) {
    const { path, bound } = walked.beyond;
    warnings.push(
      `${path} is not read: the local .env is looked for up to where you can vouch for it, and ${bound} (--config FILE reads a file of yours)`,
    );
  }
  for (const [role, path] of candidates) {
    if (path === undefined) continue;
    const layer = fileLayer(role, path, sources, owner, warnings);
    files.push({ role, path, found: layer !== undefined });
    if (layer !== undefined) layers.push(layer);
  }
  layers.push(...(sources.below ?? []));
  return { resolved: resolveSettings(layers), files, warnings };
}

/**
 * The layer of one configuration file, when it is there and the person's own (its problems, lines not
 * understood and keys it may not give are `warnings`). A `--config FILE` that cannot be read or is not
 * the person's own is a {@link ConfigFileError}.
 */
function fileLayer(
  role: Configuration['files'][number]['role'],
  path: string,
  sources: ConfigurationSources,
  owner: Owner,
  warnings: string[],
): Layer | undefined {
  const required = role === 'local' && sources.configFile !== undefined;
  const read = readIfPresent(path, required);
  if (read === undefined) return undefined;
  const problem = fileProblem(owner, read);
  if (problem !== undefined && required) throw new ConfigFileError(`the configuration file ${path} is not read: ${problem}`);
  if (problem !== undefined) {
    warnings.push(`${path} is not read: ${problem}, so it may not steer your credentials`);
    return undefined;
  }
  const parsed = parseDotenv(read.text);
  const values = new Map([...parsed.values].filter(([key]) => key.startsWith('A2ACLI_')));
  for (const line of parsed.badLines) warnings.push(`${path}:${line} is not KEY=value: ignored`);
  for (const key of values.keys()) if (!KNOWN.has(key)) warnings.push(`${path}: ${key} is not a setting a4h knows: ignored`);
  if (role === 'local' && sources.configFile === undefined) {
    // A project's .env may come with the project (a clone): it never says where a secret goes or which variable holds one.
    for (const key of [...values.keys()].filter((key) => ELSEWHERE_ONLY.has(key))) {
      values.delete(key);
      warnings.push(
        `${path}: ${key} is ignored in a .env found in your folders (it says where a secret goes or which variable holds one): give it as a flag, in the environment, in --config FILE or in a file of ${configDir(sources.env)}`,
      );
    }
  }
  const secrets = [...values.keys()].filter((key) => SECRETS.has(key));
  if (secrets.length > 0 && readableByOthers(read.file)) {
    warnings.push(`${path} holds a credential (${secrets.join(', ')}) and others can read it: chmod 600 ${path}`);
  }
  return { source: `file ${path}`, values };
}

/**
 * One line per file that supplied a credential setting (a credential, which variable holds one, where
 * one goes), naming the file and the variables: nothing steers a secret from a file silently.
 */
export function credentialSources(configuration: Configuration): string[] {
  const byFile = new Map<string, string[]>();
  for (const entry of configuration.resolved) {
    if (!entry.setting.credential || !entry.source.startsWith('file ')) continue;
    const file = entry.source.slice('file '.length);
    byFile.set(file, [...(byFile.get(file) ?? []), entry.setting.variable]);
  }
  return [...byFile].map(([file, variables]) => `${variables.join(', ')} from ${file}`);
}

/** True when a file beyond the walk's bounds holds a4h settings (one that does not is nobody's concern). */
function holdsSettings(path: string): boolean {
  if (!statIfPresent(path)?.isFile()) return false;
  try {
    return [...parseDotenv(readFileSync(path, 'utf8')).values.keys()].some((key) => key.startsWith('A2ACLI_'));
  } catch {
    return false;
  }
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

/** A configuration file as read: its text, the file read (through links) and the path's own entry before and after. */
interface ReadFile {
  text: string;
  file: Stats;
  before: Stats;
  after: Stats;
}

/**
 * The file at `path`, read through one descriptor (so what was read is what is checked), with the
 * path's own entry (not followed) looked at before it was opened and after it was read.
 */
function readIfPresent(path: string, required: boolean): ReadFile | undefined {
  let fd: number | undefined;
  try {
    const before = lstatSync(path);
    fd = openSync(path, 'r');
    const file = fstatSync(fd);
    const text = readFileSync(fd, 'utf8');
    return { text, file, before, after: lstatSync(path) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!required && (code === 'ENOENT' || code === 'ENOTDIR')) return undefined;
    throw new ConfigFileError(`cannot read the configuration file ${path}${code ? ` (${code})` : ''}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Why a file read is not the person's own to take settings from: the file (through any link) is
 * another user's or others may write it; the path is a link another user made (one planted in a
 * folder others may write, pointing at a file of the person's that holds another agent's
 * credentials); or the path's entry changed while it was read (swapped for a link).
 */
function fileProblem(owner: Owner, read: ReadFile): string | undefined {
  const { file, before, after } = read;
  const problem = notOwnProblem(owner, file, 'file');
  if (problem !== undefined || owner.uid === undefined) return problem; // no owners to check (Windows): every file is the person's
  if (before.ino !== after.ino || before.dev !== after.dev || (!before.isSymbolicLink() && before.ino !== file.ino)) {
    return 'it changed while it was read';
  }
  if (before.isSymbolicLink() && before.uid !== owner.uid) {
    return `it is a link another user made (uid ${before.uid}), not you (uid ${owner.uid})`;
  }
  return undefined;
}

/** True when the group or others may read the file (POSIX modes; Windows has none to check). */
function readableByOthers(file: Stats): boolean {
  if (process.platform === 'win32') return false;
  return (file.mode & 0o044) !== 0;
}

/** A resolved setting's value by flag name. */
export function valueOf(configuration: Configuration, flag: string): Resolved | undefined {
  return configuration.resolved.find((entry) => entry.setting.flag === flag);
}
