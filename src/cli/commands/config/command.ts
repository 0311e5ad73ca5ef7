import { IDENTITY_SECRET_ENV } from '../../../node/index.js';
import { CONNECTION_OPTIONS, configurationFor } from '../../reach/agent-options.js';
import type { Resolved } from '../../reach/config/settings.js';
import { agentScope, configDir } from '../../reach/config/paths.js';
import { defineCommand } from '../../core/command.js';
import { UsageError } from '../../core/io.js';
import { AGENT_REF_OPTIONS, agentUrl, COMMON_OPTIONS, OUTPUT_OPTIONS } from '../../core/flags.js';

/** The flags `a4h config show` takes. */
export const CONFIG_OPTIONS = {
  bearer: { type: 'string' },
  'api-key': { type: 'string' },
  'svc-param': { type: 'string', multiple: true },
  ...CONNECTION_OPTIONS,
  ...AGENT_REF_OPTIONS,
  ...OUTPUT_OPTIONS,
  ...COMMON_OPTIONS,
} as const;

/** `a4h config show`: the effective settings and where each came from. */
export const config = defineCommand({
  name: 'config',
  usage: `Usage: a4h config show [<agent>] [-a REF] [-o text|json] [--config FILE] [--bearer TOKEN] [--api-key KEY]
                [--svc-param KEY:VALUE]… [--insecure]

Shows the configuration a command would run with (read-only: it changes nothing), each setting
with the source it resolved from, highest first: the flag, the environment (A2ACLI_BEARER,
A2ACLI_API_KEY, A2ACLI_SVC_PARAM, A2ACLI_INSECURE), the local file (--config FILE, else the
nearest .env up from the working directory, up to the project's root (.git), your home folder or a
folder not yours), the agent's own file (<config dir>/agents/HOST_PORT.env,
with an agent URL), the global file (<config dir>/.env), a token from a4h auth login, the built-in
default. The agent (<agent>, or -a/--agent-card REF): a URL, or a bare host or host:port (http:// on
loopback, https:// elsewhere), as on every command. The config dir is $XDG_CONFIG_HOME/a4h (default ~/.config/a4h). Credentials are shown as
set, never their values. Files are edited (or removed) by hand; a file is read only when you own it
and nobody else can write it (a warning names any other), and one holding a credential should be
mode 0600 (a warning says so when others can read it).
-o json prints one JSON object: {"scope","configDir","files":[…],"settings":[{"name","variable",
"value"?,"set","source"}],"warnings":[…]}. Exit status: 0, 2 bad usage (an unreadable --config file too).
--verbose shows an error's causes.`,
  options: CONFIG_OPTIONS,
  async run({ values, positionals, io, mode }) {
    const [verb, ...refs] = values['agent-card'] === undefined ? positionals : [...positionals, values['agent-card']];
    if (verb !== 'show' || refs.length > 1) throw new UsageError('config takes one verb, show, and at most one agent');
    const agent = refs[0] === undefined ? undefined : agentUrl(refs[0], 'config show');
    if (agent !== undefined && agentScope(agent) === undefined) throw new UsageError(`not a URL: ${agent}`);
    const configuration = configurationFor(values, agent ?? '', io, false);
    const scope = agent === undefined ? undefined : agentScope(agent);
    const settings = [...configuration.resolved.map(shown), identitySecret(io.env)];
    if (mode.format === 'json') {
      const document = {
        scope: scope ?? null,
        configDir: configDir(io.env),
        files: configuration.files,
        settings,
        warnings: configuration.warnings,
      };
      io.out.write(`${JSON.stringify(document)}\n`);
      return 0;
    }
    io.out.write(`Scope: ${scope === undefined ? '(no agent: give an agent URL for its own file)' : `${scope} (${agent})`}\n`);
    io.out.write(`Config dir: ${configDir(io.env)}\n`);
    for (const file of configuration.files) io.out.write(`File (${file.role}): ${file.path}${file.found ? '' : ' (not found)'}\n`);
    for (const setting of settings) {
      const value = setting.value === undefined ? (setting.set ? 'set (hidden)' : setting.fallback) : setting.value;
      io.out.write(`${setting.name}: ${value} (source: ${setting.source})\n`);
    }
    for (const warning of configuration.warnings) io.out.write(`Warning: ${warning}\n`);
    return 0;
  },
});

/** What `config show` says of one setting: secrets only as set. */
interface Shown {
  name: string;
  variable: string;
  set: boolean;
  value?: string;
  fallback: string;
  source: string;
}

function shown(entry: Resolved): Shown {
  const { setting } = entry;
  const set = entry.value !== undefined;
  const base = { name: setting.flag, variable: setting.variable, set, fallback: setting.fallback, source: entry.source };
  if (!set || setting.secret) return base;
  return { ...base, value: Array.isArray(entry.value) ? entry.value.join(',') : String(entry.value) };
}

/** The identity secret: from the environment only, shown as set or not. */
function identitySecret(env: NodeJS.ProcessEnv): Shown {
  const set = (env[IDENTITY_SECRET_ENV] ?? '') !== '';
  return {
    name: 'identity-secret',
    variable: IDENTITY_SECRET_ENV,
    set,
    fallback: '(none: a random key per process)',
    source: set ? `environment ${IDENTITY_SECRET_ENV}` : 'default',
  };
}
