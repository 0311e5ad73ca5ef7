/**
 * Configuration: `.env` files and A2ACLI_* variables under the flags, in one order (flag → environment →
 * local file → the agent's own global file → global file → default), shown by `a4h config show` with
 * each value's source, and used by the commands (credentials, --insecure). HOME and XDG_CONFIG_HOME
 * point at a temporary directory; nothing leaves 127.0.0.1. Several processes per test: up to two minutes each on a busy machine.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { AUTH_MOUNTS, AUTH_SECRETS, startAuthAgents, type AuthAgents } from '../../../fixtures/agent-auth.js';
import { REPLY } from '../../../fixtures/index.js';
import { useAgent } from '../../agent-rig.js';
import { runCli } from '../run-cli.js';

let agents: AuthAgents;
let root: string;
let home: string;
let project: string;
let configHome: string;
useAgent(startAuthAgents, (a) => (agents = a));
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'a4h-config-'));
  home = join(root, 'home');
  configHome = join(root, 'xdg');
  project = join(root, 'project', 'sub');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  mkdirSync(join(configHome, 'a4h', 'agents'), { recursive: true });
  return () => rmSync(root, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => ({ HOME: home, XDG_CONFIG_HOME: configHome, ...extra });
const write = (path: string, text: string, mode = 0o600) => {
  writeFileSync(path, text, { mode });
  chmodSync(path, mode);
};
const globalEnv = () => join(configHome, 'a4h', '.env');
const agentEnv = (scope: string) => join(configHome, 'a4h', 'agents', `${scope}.env`);
const scopeOf = (url: string) => `127.0.0.1_${new URL(url).port}`;
const show = (args: string[], extra: Record<string, string> = {}) => runCli(['config', 'show', ...args], { env: env(extra), cwd: project });
const line = (stdout: string, name: string) => stdout.split('\n').find((l) => l.startsWith(`${name}: `));

describe('a4h config show: each value with the source it resolved from', { timeout: 120_000 }, () => {
  it('precedence: flag over environment over local .env over the agent file over the global file over the default', async () => {
    const url = agents.v1.url('/');
    expect(line((await show([url])).stdout, 'insecure')).toBe('insecure: false (TLS certificates are verified) (source: default)');
    write(globalEnv(), 'A2ACLI_INSECURE=true\n');
    expect(line((await show([url])).stdout, 'insecure')).toBe(`insecure: true (source: file ${globalEnv()})`);
    write(agentEnv(scopeOf(url)), 'A2ACLI_INSECURE=no\n');
    expect(line((await show([url])).stdout, 'insecure')).toBe(`insecure: no (source: file ${agentEnv(scopeOf(url))})`);
    // The local file: the nearest .env walking up from the working directory.
    write(join(root, 'project', '.env'), '# a project\nexport A2ACLI_INSECURE="yes"\n');
    expect(line((await show([url])).stdout, 'insecure')).toBe(`insecure: yes (source: file ${join(root, 'project', '.env')})`);
    expect(line((await show([url], { A2ACLI_INSECURE: 'off' })).stdout, 'insecure')).toBe(
      'insecure: off (source: environment A2ACLI_INSECURE)',
    );
    const flagged = await show([url, '--insecure'], { A2ACLI_INSECURE: 'off' });
    expect(flagged.code).toBe(0);
    expect(line(flagged.stdout, 'insecure')).toBe('insecure: true (source: flag --insecure)');
  });

  it('--config FILE is read in place of the local .env (the environment still wins); a missing one is bad usage', async () => {
    write(join(root, 'project', '.env'), 'A2ACLI_INSECURE=yes\n');
    const chosen = join(root, 'agent-x.env');
    write(chosen, 'A2ACLI_INSECURE=0\n');
    const { stdout } = await show(['--config', chosen]);
    expect(line(stdout, 'insecure')).toBe(`insecure: 0 (source: file ${chosen})`);
    expect(stdout).toContain(`File (local): ${chosen}\n`);
    expect(line((await show(['--config', chosen], { A2ACLI_INSECURE: '1' })).stdout, 'insecure')).toMatch(/source: environment/);
    const missing = await show(['--config', join(root, 'nope.env')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read the configuration file .*nope\.env \(ENOENT\)/);
    const send = await runCli(['send', 'http://127.0.0.1:9/', '--config', join(root, 'nope.env'), 'hi'], { env: env(), cwd: project });
    expect(send.code).toBe(2);
    expect(send.stderr).toMatch(/cannot read the configuration file .*nope\.env \(ENOENT\)/);
  });

  it("an agent's file for https://HOST never applies to http://HOST (HOST_80): its credentials would go in clear", async () => {
    const https = await show(['https://bank.example.com/']);
    expect(https.stdout).toContain('Scope: bank.example.com (https://bank.example.com/)');
    expect(https.stdout).toContain(`File (agent): ${agentEnv('bank.example.com')}`);
    const http = await show(['http://bank.example.com/']);
    expect(http.stdout).toContain('Scope: bank.example.com_80 (http://bank.example.com/)');
    expect(http.stdout).toContain(`File (agent): ${agentEnv('bank.example.com_80')}`);
  });

  it("scoped by agent: an agent's own file applies to that agent only", async () => {
    const one = agents.v1.url('/');
    const other = 'http://127.0.0.1:9/';
    write(agentEnv(scopeOf(one)), 'A2ACLI_SVC_PARAM=x-tenant:acme\n');
    expect(line((await show([one])).stdout, 'svc-param')).toBe(`svc-param: set (hidden) (source: file ${agentEnv(scopeOf(one))})`);
    expect(line((await show([other])).stdout, 'svc-param')).toBe('svc-param: (none) (source: default)');
    expect((await show([other])).stdout).toContain('Scope: 127.0.0.1_9 (http://127.0.0.1:9/)\n');
  });

  it('credentials are shown as set, never their values, in text and in -o json', async () => {
    write(globalEnv(), `A2ACLI_BEARER=${AUTH_SECRETS.bearer}\n`);
    const text = await show([agents.v1.url('/')], { A2ACLI_API_KEY: AUTH_SECRETS.apiKey });
    expect(line(text.stdout, 'bearer')).toBe(`bearer: set (hidden) (source: file ${globalEnv()})`);
    expect(line(text.stdout, 'api-key')).toBe('api-key: set (hidden) (source: environment A2ACLI_API_KEY)');
    const json = await show([agents.v1.url('/'), '-o', 'json', '--bearer', 'flag-token-123'], { A2ACLI_API_KEY: AUTH_SECRETS.apiKey });
    const document = JSON.parse(json.stdout) as { settings: { name: string; set: boolean; source: string; value?: string }[] };
    expect(document.settings.find((s) => s.name === 'bearer')).toEqual(expect.objectContaining({ set: true, source: 'flag --bearer' }));
    for (const output of [text, json]) {
      const all = output.stdout + output.stderr;
      for (const secret of [AUTH_SECRETS.bearer, AUTH_SECRETS.apiKey, 'flag-token-123']) expect(all).not.toContain(secret);
    }
  });

  it('a file holding a credential that others can read gets a warning naming chmod 600; a 0600 one none', async () => {
    write(globalEnv(), `A2ACLI_BEARER=${AUTH_SECRETS.bearer}\n`, 0o644);
    const open = await show([]);
    expect(open.stdout).toContain(
      `Warning: ${globalEnv()} holds a credential (A2ACLI_BEARER) and others can read it: chmod 600 ${globalEnv()}`,
    );
    chmodSync(globalEnv(), 0o600);
    expect((await show([])).stdout).not.toContain('Warning:');
  });

  it('never changes anything: show is the only verb', async () => {
    const { code, stderr } = await runCli(['config', 'set', 'x'], { env: env() });
    expect(code).toBe(2);
    expect(stderr).toMatch(/config takes one verb, show/);
  });
});

describe('the commands use the configuration', { timeout: 60_000 }, () => {
  it('A2ACLI_BEARER from the agent file reaches that agent as a bearer token (flag, env, file: the same setting)', async () => {
    const url = agents.v1.url(AUTH_MOUNTS.bearer);
    const refused = await runCli(['send', url, 'artifacts'], { env: env(), cwd: project });
    expect(refused.code).not.toBe(0);
    write(agentEnv(scopeOf(url)), `A2ACLI_BEARER=${AUTH_SECRETS.bearer}\n`);
    const { code, stdout, stderr } = await runCli(['send', url, 'artifacts'], { env: env(), cwd: project });
    expect(stderr).not.toContain(AUTH_SECRETS.bearer);
    expect(stdout).toContain(REPLY.artifacts);
    expect(code).toBe(0);
  });

  it('--bearer and A2ACLI_BEARER: the flag wins over the environment', async () => {
    const url = agents.v1.url(AUTH_MOUNTS.bearer);
    const flag = await runCli(['send', url, '--bearer', AUTH_SECRETS.bearer, 'artifacts'], {
      env: env({ A2ACLI_BEARER: 'wrong' }),
      cwd: project,
    });
    expect(flag.code).toBe(0);
    const environment = await runCli(['send', url, 'artifacts'], { env: env({ A2ACLI_BEARER: AUTH_SECRETS.bearer }), cwd: project });
    expect(environment.code).toBe(0);
  });

  it("--api-key and A2ACLI_API_KEY: the key where the card's apiKey scheme puts it (a header, a query parameter)", async () => {
    for (const mount of [AUTH_MOUNTS.apiKey, AUTH_MOUNTS.apiKeyQuery]) {
      const url = agents.v1.url(mount);
      expect((await runCli(['send', url, '--api-key', AUTH_SECRETS.apiKey, 'artifacts'], { env: env(), cwd: project })).code).toBe(0);
      const viaEnv = await runCli(['send', url, 'artifacts'], { env: env({ A2ACLI_API_KEY: AUTH_SECRETS.apiKey }), cwd: project });
      expect(viaEnv.stdout).toContain(REPLY.artifacts);
    }
  });

  it('--svc-param KEY:VALUE (repeatable) and A2ACLI_SVC_PARAM: headers on every request to the agent', async () => {
    const url = agents.v1.url(AUTH_MOUNTS.apiKey);
    const from = agents.v1.received.length;
    const flags = await runCli(
      ['send', url, '--svc-param', `X-API-Key:${AUTH_SECRETS.apiKey}`, '--svc-param', 'x-trace-id:abc123', 'artifacts'],
      {
        env: env(),
        cwd: project,
      },
    );
    expect(flags.code).toBe(0);
    for (const request of agents.v1.received.slice(from)) expect(request.headers['x-trace-id']).toBe('abc123');
    const viaEnv = await runCli(['send', url, 'artifacts'], {
      env: env({ A2ACLI_SVC_PARAM: `X-API-Key:${AUTH_SECRETS.apiKey},x-trace-id:def` }),
      cwd: project,
    });
    expect(viaEnv.code).toBe(0);
    expect(agents.v1.received.at(-1)!.headers['x-trace-id']).toBe('def');
    const bad = await runCli(['send', url, '--svc-param', 'no-colon', 'hi'], { env: env(), cwd: project });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--svc-param takes KEY:VALUE/);
  });

  it('A2ACLI_OAUTH_CLIENT_ID and A2ACLI_OAUTH_CLIENT_SECRET_ENV: the OAuth client of the --oauth flags, from the environment', async () => {
    const url = agents.v1.url(AUTH_MOUNTS.oauth);
    const { code, stdout, stderr } = await runCli(['send', url, 'artifacts'], {
      env: env({
        A2ACLI_OAUTH_CLIENT_ID: AUTH_SECRETS.clientId,
        A2ACLI_OAUTH_CLIENT_SECRET_ENV: 'MY_SECRET',
        MY_SECRET: AUTH_SECRETS.clientSecret,
      }),
      cwd: project,
    });
    expect(stdout, stderr).toContain(REPLY.artifacts);
    expect(code).toBe(0);
    expect(stderr).not.toContain(AUTH_SECRETS.clientSecret);
  });

  it('every usage says a credential flag shows in the process table and shell history, and names the variables', async () => {
    for (const command of ['send', 'chat', 'card', 'resume', 'history', 'conformance']) {
      const { stdout } = await runCli([command, '--help']);
      expect(stdout.replace(/\s+/g, ' '), command).toMatch(
        /a flag's value shows in the process table and in shell history, so prefer their environment variables A2ACLI_BEARER and A2ACLI_API_KEY/,
      );
    }
  });
});
