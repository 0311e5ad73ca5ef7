import { lastValueFrom } from 'rxjs';
import { type AccessToken, createA2A, redactQuery, requestToken, type SecuritySchemeInfo } from '../../../node/index.js';
import { configurationFor, CONNECTION_OPTIONS } from '../../reach/agent-options.js';
import { deviceLogin } from './device.js';
import { storeToken } from '../../reach/token-store.js';
import { valueOf, type Configuration } from '../../reach/config/load.js';
import { wireLog } from '../../reach/debug.js';
import { insecureFetch, warnInsecure } from '../../reach/insecure.js';
import { notice, UsageError, type Io } from '../../core/io.js';
import { OAUTH_OPTIONS } from '../../reach/oauth.js';
import { durationMs } from '../../core/options.js';
import { defineCommand, type Call } from '../../core/command.js';
import { AGENT_REF_OPTIONS, AGENT_REF_USAGE, agentUrl, COMMON_OPTIONS, DEBUG_OPTIONS, OUTPUT_OPTIONS } from '../../core/flags.js';
import { booleanOf } from '../../reach/config/settings.js';

/** The flags `a4h auth` takes. */
export const AUTH_OPTIONS = {
  ...OAUTH_OPTIONS,
  'oauth-device-url': { type: 'string' },
  device: { type: 'boolean' },
  timeout: { type: 'string' },
  ...OUTPUT_OPTIONS,
  ...DEBUG_OPTIONS,
  ...CONNECTION_OPTIONS,
  ...AGENT_REF_OPTIONS,
  ...COMMON_OPTIONS,
} as const;

/** `a4h auth login|logout`. */
export const auth = defineCommand({
  name: 'auth',
  usage: `Usage: a4h auth login <agent> [-a REF] [--device] [--oauth-client-id ID] [--oauth-client-secret-env VAR]
                      [--oauth-scope S]… [--oauth-card-scopes] [--oauth-token-url URL] [--oauth-device-url URL] [--timeout DURATION]
                      [-o text|json] [--debug] [--insecure] [--config FILE]
       a4h auth logout <agent> [-a REF] [-o text|json] [--config FILE]

Gets an OAuth 2.1 access token for the agent and stores it, so later commands on that agent send it
as a bearer token (until it expires; a flag, a variable or a file giving a credential comes first).
Client credentials (the default): the client id and the secret from the environment variable
--oauth-client-secret-env names, at --oauth-token-url or the card's token URL when it is on the
agent's own origin, for each --oauth-scope (the card's scopes with --oauth-card-scopes). --device: the device code flow (RFC 8628) for a person: the page and
the code to enter there are shown on stderr, and the command waits (--timeout, default 300 s)
until the sign-in is approved, at the card's device code flow on the agent's origin (or
--oauth-device-url and --oauth-token-url). --timeout bounds client credentials too (default 30 s); each request to an
endpoint takes 30 s at most and its answer 64 KiB. Each flag has its variable (A2ACLI_OAUTH_CLIENT_ID, A2ACLI_OAUTH_CLIENT_SECRET_ENV,
A2ACLI_OAUTH_SCOPE, A2ACLI_OAUTH_TOKEN_URL, A2ACLI_OAUTH_DEVICE_URL) and may come from a .env file.
The token goes to <config dir>/tokens.json (mode 0600, keyed by the agent's origin; the config dir
is $XDG_CONFIG_HOME/a4h, default ~/.config/a4h) and is never shown. logout removes it.
--debug logs each request and answer on stderr (the card's, the endpoints'), every credential redacted:
the client secret, the device code, the tokens the endpoint answers.
Exit status: 0 stored (or removed), 4 the authorization server refused, 5 --timeout ran out (or an
endpoint did not answer in time), 3 an endpoint unreachable, 1 another error, 2 bad usage. --verbose shows
an error's causes.
${AGENT_REF_USAGE}`,
  options: AUTH_OPTIONS,
  run: authRun,
});

async function authRun({ values, positionals, io, mode, about }: Call<typeof AUTH_OPTIONS>): Promise<number> {
  const [verb, ...refs] = values['agent-card'] === undefined ? positionals : [...positionals, values['agent-card']];
  if ((verb !== 'login' && verb !== 'logout') || refs.length !== 1) throw new UsageError('auth takes login or logout and one agent');
  const agent = (about.agent = agentUrl(refs[0]!, `auth ${verb}`));
  let origin: string;
  try {
    origin = new URL(agent).origin;
  } catch {
    throw new UsageError(`not a URL: ${agent}`);
  }
  if (verb === 'logout') {
    const path = storeToken(io.env, agent, undefined);
    io.out.write(
      mode.format === 'json'
        ? `${JSON.stringify({ agent: origin, removed: true, file: path })}\n`
        : `Agent: ${origin}\nToken: removed from ${path}\n`,
    );
    return 0;
  }
  const configuration = configurationFor(values, agent, io);
  const login = await loginOf(values.device === true, configuration, agent, io, values.timeout, values.debug === true);
  const expiresAt = login.token.expiresInS === undefined ? undefined : Date.now() + login.token.expiresInS * 1000;
  const path = storeToken(io.env, agent, {
    accessToken: login.token.accessToken,
    tokenType: 'Bearer',
    flow: login.flow,
    tokenUrl: login.tokenUrl,
    ...(expiresAt === undefined ? {} : { expiresAt }),
  });
  const expires = expiresAt === undefined ? 'not said' : `${new Date(expiresAt).toISOString()} (in ${login.token.expiresInS} s)`;
  if (mode.format === 'json') {
    const scopes = login.token.scopes ?? null;
    io.out.write(`${JSON.stringify({ agent: origin, flow: login.flow, file: path, expiresAt: expiresAt ?? null, scopes })}\n`);
  } else {
    io.out.write(`Agent: ${origin}\nFlow: ${login.flow}\nToken: stored in ${path} (never shown)\nExpires: ${expires}\n`);
    if (login.token.scopes) io.out.write(`Scope: ${login.token.scopes.join(' ')}\n`);
  }
  return 0;
}

/** How long a client credentials login may take by default, in seconds: its one token request, read whole. */
const TOKEN_TIMEOUT_S = 30;
/** How long a device login may take by default, in seconds: the person's sign-in included. */
const DEVICE_TIMEOUT_S = 300;

/** What the card's OAuth scheme says (its summary's fields). */
type OAuthScheme = Pick<SecuritySchemeInfo, 'tokenUrl' | 'deviceAuthorizationUrl' | 'deviceTokenUrl' | 'scopes'>;

/** What a login got: the token, its flow, its endpoint. */
interface Login {
  token: AccessToken;
  flow: 'client_credentials' | 'device_code';
  tokenUrl: string;
}

async function loginOf(
  device: boolean,
  configuration: Configuration,
  agent: string,
  io: Io,
  timeout: string | undefined,
  debug: boolean,
): Promise<Login> {
  const text = (flag: string) => {
    const value = valueOf(configuration, flag)?.value;
    return typeof value === 'string' ? value : undefined;
  };
  const clientId = text('oauth-client-id');
  if (clientId === undefined) throw new UsageError('auth login needs --oauth-client-id ID (or A2ACLI_OAUTH_CLIENT_ID)');
  const variable = text('oauth-client-secret-env');
  const secret = variable === undefined ? undefined : io.env[variable]?.trim();
  if (variable !== undefined && (secret === undefined || secret === ''))
    throw new UsageError(`--oauth-client-secret-env ${variable}: that environment variable is not set or empty`);
  if (!device && secret === undefined)
    throw new UsageError(
      'client credentials need --oauth-client-secret-env VAR (the secret from the environment); --device signs a person in',
    );
  // A duration as every command takes it (a number of seconds, or 500ms, 2s, 5m, 1h), at most an hour.
  const seconds = timeout === undefined ? (device ? DEVICE_TIMEOUT_S : TOKEN_TIMEOUT_S) : durationMs('timeout', timeout, 3_600_000) / 1000;
  const insecure = booleanOf(text('insecure')) === true;
  if (insecure) warnInsecure(io, agent, true);
  const reach = insecure ? insecureFetch() : globalThis.fetch;
  const fetchImpl = debug ? wireLog(io).fetch(reach) : reach;
  const scopesGiven = valueOf(configuration, 'oauth-scope')?.value;
  let scopes = Array.isArray(scopesGiven) ? [...scopesGiven] : undefined;
  let tokenUrl = text('oauth-token-url');
  let deviceUrl = text('oauth-device-url');
  const cardScopesRaw = text('oauth-card-scopes');
  const cardScopes = booleanOf(cardScopesRaw);
  if (cardScopesRaw !== undefined && cardScopes === undefined) throw new UsageError('A2ACLI_OAUTH_CARD_SCOPES takes true or false');
  if (tokenUrl === undefined || (scopes === undefined && cardScopes === true) || (device && deviceUrl === undefined)) {
    const scheme = await oauthSchemeOf(agent, fetchImpl);
    // The card names endpoints on the agent's own origin only: one elsewhere gets nothing unless the person names it.
    tokenUrl ??= ownOrigin(
      agent,
      device ? (scheme?.deviceTokenUrl ?? scheme?.tokenUrl) : scheme?.tokenUrl,
      'token URL',
      '--oauth-token-url',
    );
    if (cardScopes === true) scopes ??= scheme?.scopes;
    if (device) deviceUrl ??= ownOrigin(agent, scheme?.deviceAuthorizationUrl, 'device authorization URL', '--oauth-device-url');
  }
  if (tokenUrl === undefined) throw new UsageError("the agent's card names no OAuth token URL: give --oauth-token-url URL");
  if (!device) {
    const token = await requestToken({
      tokenUrl,
      clientId,
      clientSecret: secret!,
      ...(scopes ? { scopes } : {}),
      fetch: fetchImpl,
      signal: AbortSignal.timeout(seconds * 1000),
    });
    return { token, flow: 'client_credentials', tokenUrl };
  }
  if (deviceUrl === undefined) throw new UsageError("the agent's card names no device authorization endpoint: give --oauth-device-url URL");
  const token = await deviceLogin({
    deviceUrl,
    tokenUrl,
    clientId,
    ...(secret === undefined ? {} : { clientSecret: secret }),
    ...(scopes ? { scopes } : {}),
    fetch: fetchImpl,
    timeoutMs: seconds * 1000,
    prompt: (page, code, complete) =>
      notice(
        io,
        `to sign in, open ${page} and enter the code ${code}${complete ? ` (or open ${complete})` : ''}; waiting for the approval…`,
      ),
  });
  return { token, flow: 'device_code', tokenUrl };
}

/**
 * An endpoint the card names, when it is on the agent's own origin; one on another origin is bad usage
 * naming it and the flag that would send there (the client secret, or the person's sign-in, goes to a
 * place the person chose, never to one the card chose).
 */
function ownOrigin(agent: string, url: string | undefined, what: string, flag: string): string | undefined {
  if (url === undefined) return undefined;
  const origin = new URL(agent).origin;
  let named: string;
  try {
    named = new URL(url).origin;
  } catch {
    throw new UsageError(`the agent's card names a ${what} that is not a URL: give ${flag} URL`);
  }
  if (named === origin) return url;
  throw new UsageError(
    `the agent's card names the ${what} ${redactQuery(url)}, on another origin than the agent (${origin}): nothing is sent there unless you name it (${flag} URL)`,
  );
}

/** The card's OAuth scheme: its flows' endpoints and the scopes its requirement asks for. */
async function oauthSchemeOf(agent: string, fetchImpl: typeof fetch): Promise<OAuthScheme | undefined> {
  const client = createA2A({ identitySecret: globalThis.crypto.randomUUID(), fetch: fetchImpl });
  try {
    const summary = await lastValueFrom(client.card(agent));
    const scheme = (summary.securitySchemes ?? []).find((s) => s.type === 'oauth2');
    if (scheme === undefined) return undefined;
    return scheme;
  } finally {
    await client.close();
  }
}
