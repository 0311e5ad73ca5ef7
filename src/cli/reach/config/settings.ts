/**
 * The settings that configuration may give, and where each value comes from. One fixed order,
 * highest first: the flag, the environment (`A2ACLI_<FLAG>`), the local file (`--config FILE`, else
 * the nearest `.env` up from the working directory), the agent's own global file
 * (`<config dir>/agents/<host>_<port>.env`), the global file (`<config dir>/.env`), the built-in default.
 */

/** One setting: its flag, its variable, whether its value is a secret (never shown). */
export interface Setting {
  /** The long flag, without dashes. */
  flag: string;
  /** The environment variable and file key: `A2ACLI_` and the flag in upper snake case. */
  variable: string;
  kind: 'string' | 'boolean' | 'list';
  /** A credential: `config show` hides it; a file holding it must not be readable by others. */
  secret: boolean;
  /** It steers a credential (is one, names the variable holding one, or says where one goes): a file giving it is named on stderr. */
  credential: boolean;
  /**
   * A `.env` found by the walk up from the working directory (which may have come with a cloned
   * project) may give it. False for what says where a secret goes or which variable holds one.
   */
  fromProject: boolean;
  /** The built-in default, as shown by `config show`. */
  fallback: string;
}

/** What sets a setting apart: a secret, no credential at all, or one a project's `.env` may not give. */
interface Traits {
  secret?: boolean;
  credential?: boolean;
  fromProject?: boolean;
}

const setting = (flag: string, kind: Setting['kind'], fallback: string, traits: Traits = {}): Setting => ({
  flag,
  variable: `A2ACLI_${flag.toUpperCase().replace(/-/g, '_')}`,
  kind,
  secret: traits.secret ?? false,
  credential: traits.credential ?? true,
  fromProject: traits.fromProject ?? true,
  fallback,
});

/** The settings read from the environment and the files (the flags of the same names win over them). */
export const SETTINGS: readonly Setting[] = [
  setting('bearer', 'string', '(none)', { secret: true }),
  setting('api-key', 'string', '(none)', { secret: true }),
  setting('svc-param', 'list', '(none)', { secret: true }),
  setting('oauth-client-id', 'string', '(none)'),
  setting('oauth-client-secret-env', 'string', '(none)', { fromProject: false }),
  setting('oauth-scope', 'list', "(none: the identity provider's default)"),
  setting('oauth-card-scopes', 'boolean', 'false (only --oauth-scope is asked)'),
  setting('oauth-token-url', 'string', "(the card's, on the agent's own origin only)", { fromProject: false }),
  setting('oauth-device-url', 'string', '(none)', { fromProject: false }),
  setting('insecure', 'boolean', 'false (TLS certificates are verified)', { credential: false }),
  setting('a2a-version', 'string', '1.0 (0.3 admits every version before 1.0)', { credential: false }),
];

/** A layer of configuration: a name for `config show` and the raw values it holds, by variable. */
export interface Layer {
  /** `flag`, `environment`, or `file PATH` (…). */
  source: string;
  /** A list setting's value is its items (a flag given several times); a variable's is one string. */
  values: ReadonlyMap<string, string | readonly string[]>;
}

/** A setting's effective value and where it came from. */
export interface Resolved {
  setting: Setting;
  /** The value: a string (a boolean's as written), or a list's items; undefined when only the default applies. */
  value?: string | readonly string[];
  /** `flag --bearer`, `environment A2ACLI_BEARER`, `file /path/.env`, or `default`. */
  source: string;
}

/** Resolves every setting over the layers, highest first. */
export function resolveSettings(layers: readonly Layer[]): Resolved[] {
  return SETTINGS.map((setting) => {
    for (const layer of layers) {
      const given = layer.values.get(setting.variable);
      if (given === undefined || given.length === 0) continue;
      const value = setting.kind === 'list' && typeof given === 'string' ? listOf(given) : given;
      return { setting, value, source: sourceName(layer.source, setting) };
    }
    return { setting, source: 'default' };
  });
}

function sourceName(source: string, setting: Setting): string {
  if (source === 'flag') return `flag --${setting.flag}`;
  if (source === 'environment') return `environment ${setting.variable}`;
  return source;
}

/** A boolean setting's value: `1`, `true`, `yes`, `on` are true; `0`, `false`, `no`, `off` false; else undefined. */
export function booleanOf(raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  const word = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(word)) return true;
  if (['0', 'false', 'no', 'off'].includes(word)) return false;
  return undefined;
}

/** A list setting's items: comma-separated in a variable or a file, one per flag. */
export function listOf(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
