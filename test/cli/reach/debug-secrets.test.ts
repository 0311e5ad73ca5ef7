/**
 * `--debug` of every command that talks to an agent, against one agent whose card asks for every credential
 * kind, with every credential kind in play: a bearer token, an API key, an OAuth client (the client
 * secret going to the token endpoint, which answers an access, a refresh and an ID token; the device
 * flow's device code), a service parameter, a -H header, a push config's token and the credentials
 * the agent keeps with it (its answers carry both). The agent is shown to have received each one;
 * then every output (stdout and stderr, the wire log on it) is searched for every secret value: none
 * appears.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentCard as CardCodec, type AgentCard as CardV1 } from '@a2a-js/sdk';
import { InMemoryPushNotificationStore, type PushNotificationStore } from '@a2a-js/sdk/server';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureAuth } from '../../../fixtures/auth.js';
import { FIXTURE_SCRIPT } from '../../../fixtures/behaviours.js';
import { v1Card, v1Interfaces } from '../../../fixtures/cards.js';
import { startHost, type Host } from '../../../fixtures/http-host.js';
import { mountV1 } from '../../../fixtures/mount-v1.js';
import { runCli, cardInfo } from '../run-cli.js';

/** Every secret in play: none may appear in any output. */
const SECRETS = {
  bearer: 'dbg-bearer-4c1e8a7f2d',
  apiKey: 'dbg-apikey-9b3f6e1a5c',
  clientSecret: 'dbg-client-secret-7a2d9c4e',
  accessToken: 'dbg-access-token-2e8b5f1c',
  refreshToken: 'dbg-refresh-token-6d0a3e9b',
  idToken: 'dbg-id-token-1f7c4b8e',
  deviceCode: 'dbg-device-code-5e9a2c6f',
  svcParam: 'dbg-svc-param-3b8d1f5a',
  header: 'dbg-header-value-8f2a6c0e',
  pushToken: 'dbg-push-token-0c5e9b3d',
  pushCredentials: 'dbg-push-credentials-4a7f1d8c',
} as const;
const CLIENT_ID = 'dbg-client';

let host: Host;
let root: string;
/** Every command's stdout and stderr. */
const outputs: { name: string; text: string }[] = [];

/** The push store of an agent that keeps credentials with each config it is given (its answers carry them). */
class CredentialedPushStore implements PushNotificationStore {
  private readonly inner = new InMemoryPushNotificationStore();
  save: PushNotificationStore['save'] = (taskId, context, config) => {
    config.authentication = { scheme: 'Bearer', credentials: SECRETS.pushCredentials };
    return this.inner.save(taskId, context, config);
  };
  load: PushNotificationStore['load'] = (taskId, context) => this.inner.load(taskId, context);
  delete: PushNotificationStore['delete'] = (taskId, context, configId) => this.inner.delete(taskId, context, configId);
}

/** Anyone in: the test is about what the command shows, and checks what it sent from `received`. */
const ANYONE: FixtureAuth = { challenge: 'Bearer', userBuilder: async () => ({ isAuthenticated: true, userName: 'debug-user' }) };

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'a4h-debug-secrets-'));
  host = await startHost();
  const tokenUrl = host.url('/oauth/', 'token');
  host.mount('/oauth/', (router) => {
    router.post('/token', express.urlencoded({ extended: false }), (_req, res) => {
      res.json({
        access_token: SECRETS.accessToken,
        refresh_token: SECRETS.refreshToken,
        id_token: SECRETS.idToken,
        token_type: 'Bearer',
        expires_in: 300,
      });
    });
    router.post('/device', express.urlencoded({ extended: false }), (_req, res) => {
      res.json({ device_code: SECRETS.deviceCode, user_code: 'WDJB-MJHT', verification_uri: 'https://idp.example/device', interval: 1 });
    });
  });
  const info = cardInfo('every-credential', 'Asks for every kind');
  const card = v1Card(info, v1Interfaces(host, '/', ['JSONRPC', 'HTTP+JSON']));
  card.capabilities = { ...card.capabilities!, pushNotifications: true };
  const schemes = {
    bearerAuth: { httpAuthSecurityScheme: { scheme: 'Bearer' } },
    apiKeyAuth: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } },
    oauth: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl, scopes: {} } } } },
  };
  const wire = {
    ...(CardCodec.toJSON(card) as Record<string, unknown>),
    securitySchemes: schemes,
    securityRequirements: Object.keys(schemes).map((name) => ({ schemes: { [name]: { list: [] } } })),
  } as unknown as CardV1;
  mountV1(host, {
    mount: '/',
    card: wire,
    script: FIXTURE_SCRIPT,
    bindings: ['JSONRPC', 'HTTP+JSON'],
    auth: ANYONE,
    pushStore: new CredentialedPushStore(),
  });
});
afterAll(async () => {
  await host.agent.close();
  rmSync(root, { recursive: true, force: true });
});

const ENV = { CLIENT_SECRET: SECRETS.clientSecret, PUSH_TOKEN: SECRETS.pushToken, XDG_CONFIG_HOME: '' };

/** Runs `a4h …` (its config dir a temporary one) and keeps both outputs. */
async function run(name: string, args: string[], input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...ENV, XDG_CONFIG_HOME: join(root, 'xdg') };
  const result = await runCli(args, { env, timeoutMs: 60_000, ...(input === undefined ? {} : { input }) });
  outputs.push({ name: `${name} stdout`, text: result.stdout }, { name: `${name} stderr`, text: result.stderr });
  return result;
}

/** A command that did its job (its stderr shown when not). */
function ok(result: { code: number | null; stderr: string }): void {
  expect(result.code, result.stderr.slice(-3000)).toBe(0);
}

describe('--debug shows no credential, whatever the command', { timeout: 300_000 }, () => {
  it('send, card, card get, history, resume, chat, task get/list/subscribe/cancel, task push-config create/get/list/delete, auth login (both flows)', async () => {
    const agent = host.url('/');
    const common = [
      '--api-key',
      SECRETS.apiKey,
      '--svc-param',
      `X-Tenant-Key:${SECRETS.svcParam}`,
      '-H',
      `X-Custom: ${SECRETS.header}`,
      '--debug',
    ];
    const rounds = {
      bearer: [...common, '--bearer', SECRETS.bearer],
      oauth: [...common, '--oauth-client-id', CLIENT_ID, '--oauth-client-secret-env', 'CLIENT_SECRET'],
    };
    for (const [round, flags] of Object.entries(rounds)) {
      const sent = await run(`${round} send`, ['send', agent, 'input', '-o', 'json', '--thread', `debug-${round}`, ...flags]);
      expect(sent.code, sent.stderr).toBe(0);
      const taskId = (JSON.parse(sent.stdout) as { task: { id: string } }).task.id;
      const a = ['-a', agent, ...flags];
      ok(await run(`${round} card get`, ['card', 'get', agent, ...flags]));
      ok(await run(`${round} card`, ['card', agent, ...flags]));
      ok(await run(`${round} history`, ['history', agent, '--thread', `debug-${round}`, ...flags]));
      ok(await run(`${round} resume`, ['resume', agent, '--thread', `debug-${round}`, ...flags]));
      ok(await run(`${round} chat`, ['chat', agent, '--thread', `debug-${round}-chat`, ...flags], 'artifacts\n'));
      ok(await run(`${round} task get`, ['task', 'get', taskId, ...a]));
      ok(await run(`${round} task list`, ['task', 'list', ...a]));
      ok(await run(`${round} task subscribe`, ['task', 'subscribe', taskId, ...a]));
      const create = ['task', 'push-config', 'create', taskId, ...a, '--url', 'http://127.0.0.1:9/hook', '--config-id', 'c1'];
      const created = await run(`${round} push-config create`, [...create, '--token-env', 'PUSH_TOKEN']);
      expect(created.code, created.stderr).toBe(0);
      ok(await run(`${round} push-config get`, ['task', 'push-config', 'get', taskId, 'c1', ...a]));
      ok(await run(`${round} push-config list`, ['task', 'push-config', 'list', taskId, ...a, '-o', 'json']));
      ok(await run(`${round} push-config delete`, ['task', 'push-config', 'delete', taskId, 'c1', ...a]));
      ok(await run(`${round} task cancel`, ['task', 'cancel', taskId, ...a]));
    }
    const login = ['auth', 'login', agent, '--oauth-client-id', CLIENT_ID, '--oauth-client-secret-env', 'CLIENT_SECRET', '--debug'];
    const viaClient = await run('auth login', login);
    expect(viaClient.code, viaClient.stderr).toBe(0);
    const viaDevice = await run('auth login --device', [...login, '--device', '--oauth-device-url', host.url('/oauth/', 'device')]);
    expect(viaDevice.code, viaDevice.stderr).toBe(0);

    // Every secret was in play: sent to the agent or its token endpoint, or answered by them (the wire log shows the answers).
    const received = JSON.stringify(host.agent.received);
    for (const name of ['bearer', 'apiKey', 'svcParam', 'header', 'pushToken', 'accessToken'] as const) {
      expect(received, `the agent received the ${name}`).toContain(SECRETS[name]);
    }
    const wireLog = outputs.map((o) => o.text).join('\n');
    expect(wireLog).toContain('"refresh_token":"[redacted]"');
    // The library's own token request (send with an OAuth client) is on the wire log, its answer redacted.
    const oauthSend = outputs.find((o) => o.name === 'oauth send stderr')!.text;
    expect(oauthSend).toContain(`→ POST ${host.url('/oauth/', 'token')}`);
    expect(oauthSend).toContain('"access_token":"[redacted]"');
    expect(wireLog).toContain('device_code=[redacted]');
    expect(wireLog).toContain('"credentials":"[redacted]"');
    expect(wireLog).toMatch(/x-tenant-key: \[redacted\]/);
    for (const { name, text } of outputs.filter((o) => o.name.endsWith('stderr')))
      expect(text, `${name}: the wire log`).toContain('a4h: debug: #1 → ');
    for (const { name, text } of outputs) {
      for (const [secret, value] of Object.entries(SECRETS)) expect(text, `${secret} in ${name}`).not.toContain(value);
    }
  });
});
