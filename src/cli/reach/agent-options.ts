import type { NodeA2AOptions } from '../../node/index.js';
import { storedToken, tokensFile } from './token-store.js';
import { ConfigFileError, credentialSources, loadConfiguration, valueOf, type Configuration } from './config/load.js';
import { booleanOf, type Layer } from './config/settings.js';
import { credentialsFrom, CREDENTIAL_OPTIONS, type CredentialFlags } from './credentials.js';
import { insecureFetch, warnInsecure } from './insecure.js';
import { notice, UsageError, type Io } from '../core/io.js';
import { AGENT_REF_OPTIONS, AGENT_REF_USAGE } from '../core/flags.js';
import { EXTENSION_OPTIONS, THREAD_OPTIONS } from '../core/options.js';
import { TLS_OPTIONS, TLS_USAGE, tlsFrom, type TlsFlags } from './tls.js';
import { TRUST_OPTIONS, TRUST_USAGE, trustFrom, type TrustFlags } from './trust.js';

/** The flags of the connection: TLS verification off (development only) and an explicit configuration file. */
export const CONNECTION_OPTIONS = {
  insecure: { type: 'boolean' },
  config: { type: 'string' },
} as const;

/** The flags that say how to reach an agent and what to trust of it: credentials, connection, mutual TLS, signed cards. */
export const AGENT_OPTIONS = { ...CREDENTIAL_OPTIONS, ...CONNECTION_OPTIONS, ...TLS_OPTIONS, ...TRUST_OPTIONS } as const;

/**
 * The flags of every command that talks with an agent on a thread (chat, send, resume, history): the
 * thread and handle, the agent (`-a`) and how to reach it, the extensions its turns activate.
 */
export const THREAD_AGENT_OPTIONS = { ...THREAD_OPTIONS, ...AGENT_OPTIONS, ...EXTENSION_OPTIONS, ...AGENT_REF_OPTIONS } as const;

/** The synopsis of the flags that came with the configuration, for each command's usage. */
export const CONNECTION_SYNOPSIS = '[--bearer TOKEN] [--api-key KEY] [--svc-param KEY:VALUE]… [--insecure] [--config FILE]';

/** What the usages say of them (a credential given as a flag shows in the process table and shell history). */
export const CONNECTION_USAGE = `--bearer TOKEN and --api-key KEY give a credential (sent as the card's security scheme says);
a flag's value shows in the process table and in shell history, so prefer their environment
variables A2ACLI_BEARER and A2ACLI_API_KEY (or --bearer-env VAR, or a 0600 .env file: a4h config show).
Each of these flags, the --oauth-… ones and --a2a-version has its variable: A2ACLI_ and the flag in upper
snake case (A2ACLI_OAUTH_CLIENT_ID, A2ACLI_A2A_VERSION…; a4h config show lists them); other flags have none.
--svc-param KEY:VALUE adds a service parameter (repeatable; an HTTP header, gRPC metadata; A2ACLI_SVC_PARAM
takes KEY:VALUE,KEY:VALUE). --insecure turns TLS certificate verification off (development only;
always warned on stderr). --config FILE reads settings from FILE in place of the local .env.`;

/** What every command that reaches an agent says at the end of its usage: the agent, its credentials, signed cards, mutual TLS. */
export const REACH_USAGE = `${AGENT_REF_USAGE}\n${CONNECTION_USAGE}\n${TRUST_USAGE}\n${TLS_USAGE}`;

/** The agent flags, parsed. */
export interface AgentFlags extends CredentialFlags, TlsFlags, TrustFlags {
  bearer?: string | undefined;
  'api-key'?: string | undefined;
  'svc-param'?: string[] | undefined;
  insecure?: boolean | undefined;
  config?: string | undefined;
  'oauth-device-url'?: string | undefined;
}

/** The flags' values by the variable of their setting, for the configuration's top layer. */
export function flagLayer(flags: AgentFlags): Map<string, string | readonly string[]> {
  const values = new Map<string, string | readonly string[]>();
  if (flags.bearer !== undefined) values.set('A2ACLI_BEARER', flags.bearer);
  if (flags['api-key'] !== undefined) values.set('A2ACLI_API_KEY', flags['api-key']);
  if (flags['svc-param'] !== undefined) values.set('A2ACLI_SVC_PARAM', flags['svc-param']);
  if (flags.insecure === true) values.set('A2ACLI_INSECURE', 'true');
  for (const name of ['oauth-client-id', 'oauth-client-secret-env', 'oauth-token-url', 'oauth-device-url'] as const) {
    const value = flags[name];
    if (value !== undefined) values.set(`A2ACLI_${name.toUpperCase().replace(/-/g, '_')}`, value);
  }
  if (flags['oauth-scope'] !== undefined) values.set('A2ACLI_OAUTH_SCOPE', flags['oauth-scope']);
  if (flags['oauth-card-scopes'] === true) values.set('A2ACLI_OAUTH_CARD_SCOPES', 'true');
  return values;
}

/**
 * The layer of the token `auth login` stored for the agent's origin (below every file), when one is
 * stored and has not expired; an expired one is left out with a warning saying to log in again.
 */
export function tokenLayer(env: NodeJS.ProcessEnv, agent: string, warnings: string[] = []): Layer[] {
  const token = storedToken(env, agent, warnings);
  if (token === undefined) return [];
  if (token.expiresAt !== undefined && token.expiresAt <= Date.now()) {
    warnings.push(`the token a4h auth login stored for ${new URL(agent).origin} has expired: run a4h auth login again`);
    return [];
  }
  return [{ source: `auth login (${tokensFile(env)})`, values: new Map([['A2ACLI_BEARER', token.accessToken]]) }];
}

/**
 * The configuration of a command on `agent`: flags, environment, files and a stored token. With
 * `announce` (every command but `config show`, which prints its own), its warnings go to stderr, and
 * so does the name of each file that supplied a credential setting.
 */
export function configurationFor(flags: AgentFlags, agent: string, io: Io, announce = true): Configuration {
  if (flags.config !== undefined && flags.config.trim() === '') throw new UsageError('--config needs a file');
  const warnings: string[] = [];
  let configuration: Configuration;
  try {
    configuration = loadConfiguration({
      flags: flagLayer(flags),
      env: io.env,
      cwd: process.cwd(),
      agent,
      ...(flags.config === undefined ? {} : { configFile: flags.config }),
      below: tokenLayer(io.env, agent, warnings),
    });
  } catch (error) {
    // A --config FILE that cannot be read is the caller's mistake: bad usage, on every command.
    throw error instanceof ConfigFileError ? new UsageError(error.message) : error;
  }
  configuration.warnings.push(...warnings);
  if (announce) {
    for (const warning of configuration.warnings) notice(io, io.style.yellow(`warning: ${warning}`));
    for (const line of credentialSources(configuration)) notice(io, line);
  }
  return configuration;
}

/**
 * The client options the agent flags and the configuration give for `agent`: its credentials (scoped
 * to its origin), its client certificate (mutual TLS), the keys its card is checked with, and the fetch of `--insecure` (which always
 * warns on stderr). The configuration's warnings (a credential in a file others can read…) go to stderr too.
 */
export async function agentOptions(
  flags: AgentFlags,
  agent: string,
  io: Io,
): Promise<Pick<NodeA2AOptions, 'credentials' | 'tls' | 'trust' | 'fetch'>> {
  return (await agentSetup(flags, agent, io)).options;
}

/**
 * {@link agentOptions}, and the configuration they were read from, for what a command reads of it beyond
 * them (`--a2a-version`'s setting: its variable, a file's line).
 */
export async function agentSetup(
  flags: AgentFlags,
  agent: string,
  io: Io,
): Promise<{ options: Pick<NodeA2AOptions, 'credentials' | 'tls' | 'trust' | 'fetch'>; configuration: Configuration }> {
  if (flags.bearer !== undefined && flags['bearer-env'] !== undefined) throw new UsageError('give --bearer or --bearer-env, not both');
  const configuration = configurationFor(flags, agent, io);
  const text = (flag: string) => {
    const value = valueOf(configuration, flag)?.value;
    return typeof value === 'string' ? value : undefined;
  };
  const svc = valueOf(configuration, 'svc-param')?.value;
  // The OAuth client as configured (flags, A2ACLI_OAUTH_* variables, files). It makes its own bearer
  // token: a configured one from a lower source steps aside; --bearer with it is a usage error.
  const scopes = valueOf(configuration, 'oauth-scope')?.value;
  const effective: AgentFlags = {
    ...flags,
    'oauth-client-id': text('oauth-client-id'),
    'oauth-client-secret-env': text('oauth-client-secret-env'),
    'oauth-scope': Array.isArray(scopes) ? [...scopes] : undefined,
    'oauth-token-url': text('oauth-token-url'),
    'oauth-card-scopes': text('oauth-card-scopes'),
  };
  const oauth = effective['oauth-client-id'] !== undefined;
  if (oauth && flags.bearer !== undefined) throw new UsageError('--bearer and --oauth-client-id both give the bearer token: give one');
  const credentials = credentialsFrom(effective, agent, io.env, {
    bearer: oauth ? undefined : text('bearer'),
    apiKey: text('api-key'),
    svcParams: Array.isArray(svc) ? svc : [],
  });
  const insecureRaw = text('insecure');
  const insecure = booleanOf(insecureRaw);
  if (insecureRaw !== undefined && insecure === undefined) {
    throw new UsageError(`${valueOf(configuration, 'insecure')!.source}: A2ACLI_INSECURE takes true or false`);
  }
  const tls = await tlsFrom(flags, agent, io.env);
  const trust = await trustFrom(flags);
  if (insecure === true) warnInsecure(io, agent, credentials !== undefined);
  const options = {
    ...(credentials ? { credentials } : {}),
    ...(tls ? { tls } : {}),
    ...(trust ? { trust } : {}),
    ...(insecure === true ? { fetch: insecureFetch() } : {}),
  };
  return { options, configuration };
}
