/**
 * Every flag that has a variable (the configuration's settings: A2ACLI_ and the flag in upper snake
 * case, as `--help` says) takes effect through it as through the flag: for each setting, a command run
 * without either, with the flag, and with the variable; the flag and the variable do the same, which is
 * not what the default does. The walk is over the settings the CLI declares, so a setting added without
 * a probe here fails. Agents on 127.0.0.1: the fixture auth agents, an OAuth provider (oidc-provider)
 * and its agents, and the Strands-like agent (card 0.2.0), over HTTP and over self-signed TLS.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MOUNTS, AUTH_SECRETS, startAuthAgents, type AuthAgents } from '../../../fixtures/agent-auth.js';
import { OAUTH_MOUNTS, startOAuthAgents, type OAuthAgents } from '../../../fixtures/agent-oauth.js';
import { startStrandsAgent } from '../../../fixtures/agent-pre03.js';
import type { FixtureAgent } from '../../../fixtures/index.js';
import { OAUTH_CLIENTS, startOAuthServer, type OAuthServer } from '../../../fixtures/oauth-provider.js';
import { SETTINGS } from '../../../src/cli/reach/config/settings.js';
import { runCli, startCli } from '../run-cli.js';

const TLS = new URL('../../../fixtures/tls/', import.meta.url);
let auth: AuthAgents;
let provider: OAuthServer;
let oauth: OAuthAgents;
let strands: FixtureAgent;
let strandsTls: FixtureAgent;
beforeAll(async () => {
  const tls = { key: readFileSync(new URL('self-signed.key', TLS)), cert: readFileSync(new URL('self-signed.crt', TLS)) };
  provider = await startOAuthServer();
  [auth, oauth, strands, strandsTls] = await Promise.all([
    startAuthAgents(),
    startOAuthAgents(provider),
    startStrandsAgent(),
    startStrandsAgent({ tls }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([auth?.close(), oauth?.close(), strands?.close(), strandsTls?.close()]);
  await provider?.close();
});

/** What a run came to, in a word or two: `exit N`, or what it is seen doing before it ends. */
type Outcome = string;

/** How one setting is tried: the command (without the flag), the flag's arguments, the variable's value. */
interface Probe {
  /** The command's arguments, the flag under test left out; `given` goes where a flag may go. */
  args(given: string[]): string[];
  flag: string[];
  value: string;
  /** Extra environment every run of it needs (the variable that holds the OAuth client's secret). */
  env?: Record<string, string>;
  /** Runs it (default: to its end, its exit status). */
  run?(args: string[], env: Record<string, string>): Promise<Outcome>;
}

const SECRET_VAR = 'A4H_OAUTH_SECRET';
const oauthEnv = { [SECRET_VAR]: OAUTH_CLIENTS.gateway.secret };
/** A send to the OAuth agent that asks for the `a2a.call` scope, with the client's flags but those under test. */
const oauthSend =
  (leave: string) =>
  (given: string[]): string[] => {
    const flags: Record<string, string[]> = {
      'oauth-client-id': ['--oauth-client-id', OAUTH_CLIENTS.gateway.id],
      'oauth-client-secret-env': ['--oauth-client-secret-env', SECRET_VAR],
      'oauth-token-url': ['--oauth-token-url', provider.tokenUrl],
      'oauth-card-scopes': ['--oauth-card-scopes'],
    };
    const kept = Object.entries(flags).flatMap(([name, args]) =>
      name === leave || (leave === 'oauth-scope' && name === 'oauth-card-scopes') ? [] : args,
    );
    return ['send', oauth.v1.url(OAUTH_MOUNTS.call), ...kept, ...given, 'artifacts'];
  };

/** `auth login --device` until it shows the code to enter (then stopped), or its exit status. */
async function deviceLogin(args: string[], env: Record<string, string>): Promise<Outcome> {
  const run = startCli(args, { env, timeoutMs: 30_000 });
  const shown = new Promise<Outcome>((resolve) => {
    const check = (): void => {
      if (/enter the code \S+/.test(run.stderr())) resolve('shows the code');
      else if (run.child.exitCode === null) setTimeout(check, 50);
    };
    check();
  });
  const outcome = await Promise.race([shown, run.result.then(({ code }) => `exit ${code}`)]);
  if (run.child.exitCode === null) run.child.kill();
  await run.result;
  return outcome;
}

/** One probe per setting, by its flag. */
const PROBES: Record<string, () => Probe> = {
  bearer: () => ({
    args: (given) => ['send', auth.v1.url(AUTH_MOUNTS.bearer), ...given, 'artifacts'],
    flag: ['--bearer', AUTH_SECRETS.bearer],
    value: AUTH_SECRETS.bearer,
  }),
  'api-key': () => ({
    args: (given) => ['send', auth.v1.url(AUTH_MOUNTS.apiKey), ...given, 'artifacts'],
    flag: ['--api-key', AUTH_SECRETS.apiKey],
    value: AUTH_SECRETS.apiKey,
  }),
  'svc-param': () => ({
    args: (given) => ['send', auth.v1.url(AUTH_MOUNTS.apiKey), ...given, 'artifacts'],
    flag: ['--svc-param', `X-API-Key:${AUTH_SECRETS.apiKey}`],
    value: `X-API-Key:${AUTH_SECRETS.apiKey}`,
  }),
  'oauth-client-id': () => ({
    args: oauthSend('oauth-client-id'),
    flag: ['--oauth-client-id', OAUTH_CLIENTS.gateway.id],
    value: OAUTH_CLIENTS.gateway.id,
    env: oauthEnv,
  }),
  'oauth-client-secret-env': () => ({
    args: oauthSend('oauth-client-secret-env'),
    flag: ['--oauth-client-secret-env', SECRET_VAR],
    value: SECRET_VAR,
    env: oauthEnv,
  }),
  'oauth-scope': () => ({ args: oauthSend('oauth-scope'), flag: ['--oauth-scope', 'a2a.call'], value: 'a2a.call', env: oauthEnv }),
  'oauth-card-scopes': () => ({ args: oauthSend('oauth-card-scopes'), flag: ['--oauth-card-scopes'], value: 'true', env: oauthEnv }),
  'oauth-token-url': () => ({
    args: oauthSend('oauth-token-url'),
    flag: ['--oauth-token-url', provider.tokenUrl],
    value: provider.tokenUrl,
    env: oauthEnv,
  }),
  'oauth-device-url': () => ({
    args: (given) => [
      'auth',
      'login',
      oauth.v1.url(OAUTH_MOUNTS.call),
      '--device',
      '--oauth-client-id',
      OAUTH_CLIENTS.cli.id,
      '--oauth-token-url',
      provider.tokenUrl,
      ...given,
    ],
    flag: ['--oauth-device-url', provider.deviceUrl],
    value: provider.deviceUrl,
    run: deviceLogin,
  }),
  insecure: () => ({
    args: (given) => ['send', strandsTls.url('/'), '--a2a-version', '0.3', ...given, 'artifacts'],
    flag: ['--insecure'],
    value: 'true',
  }),
  'a2a-version': () => ({
    args: (given) => ['send', strands.url('/'), ...given, 'artifacts'],
    flag: ['--a2a-version', '0.3'],
    value: '0.3',
  }),
};

const exitOf = async (args: string[], env: Record<string, string>): Promise<Outcome> => `exit ${(await runCli(args, { env })).code}`;

describe('every flag that has a variable', () => {
  it('the walk covers every setting the CLI declares', () => {
    expect(Object.keys(PROBES).sort()).toEqual(SETTINGS.map((setting) => setting.flag).sort());
  });

  it('config show reads each variable from the environment', async () => {
    const env = Object.fromEntries(SETTINGS.map((setting) => [setting.variable, PROBES[setting.flag]!().value]));
    const { code, stdout } = await runCli(['config', 'show', '-o', 'json'], { env });
    expect(code).toBe(0);
    const shown = (JSON.parse(stdout) as { settings: { variable: string; source: string }[] }).settings;
    for (const setting of SETTINGS) {
      expect(shown.find((entry) => entry.variable === setting.variable)?.source, setting.variable).toBe(`environment ${setting.variable}`);
    }
  });

  for (const setting of SETTINGS) {
    it(`${setting.variable} does what --${setting.flag} does`, async () => {
      const probe = PROBES[setting.flag]!();
      const run = probe.run ?? exitOf;
      const env = probe.env ?? {};
      const unset = await run(probe.args([]), env);
      const flag = await run(probe.args(probe.flag), env);
      const variable = await run(probe.args([]), { ...env, [setting.variable]: probe.value });
      expect({ flag, variable }, `without either: ${unset}`).toEqual({ flag, variable: flag });
      expect(variable, 'the default does otherwise').not.toBe(unset);
    }, 60_000);
  }
});
