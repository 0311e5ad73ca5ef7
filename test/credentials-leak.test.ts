/**
 * "Never leaked": every auth case, through the library and the command, with every output kept —
 * events, errors with their cause chains (serialised deeply, hidden properties too), card summaries,
 * every logger line at debug level, and the command's stdout and stderr with --json and --verbose —
 * then every output searched for every credential value that was in play.
 */
import { inspect } from 'node:util';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MOUNTS, AUTH_SECRETS, startAuthAgents, type AuthAgents } from '../fixtures/agent-auth.js';
import type { Logger } from '../src/logger.js';
import { createA2A } from '../src/node/create-a2a.js';
import type { CredentialsOption } from '../src/sdk/http/credentials/options.js';
import { runCli } from './cli/run-cli.js';
import { eventually } from './eventually.js';
import { bareCard, sendJson, startRawAgent } from './sdk/raw-agent.js';

const WRONG = {
  bearer: 'wrong-bearer-value-5e6f7a8b9c',
  apiKey: 'wrong-apikey-value-0a1b2c3d4e',
  header: 'custom-header-secret-f0e1d2c3',
  clientSecret: 'wrong-client-secret-9d8c7b6a5f',
};

let agents: AuthAgents;
/** The token endpoint's clock: still unless a case moves it on to let the tokens it issued expire. */
let tokenClockMs = 0;
/** Every output of every case, as text. */
const outputs: { name: string; text: string }[] = [];

/** Everything reachable from `value` as text: util.inspect with hidden properties, plus a walk of own keys (causes included). */
function everything(value: unknown): string {
  const parts: string[] = [inspect(value, { depth: 12, showHidden: true })];
  const seen = new Set<unknown>();
  const walk = (item: unknown, depth: number): void => {
    if (item === null || item === undefined || depth > 12) return;
    if (typeof item !== 'object') return void parts.push(String(item));
    if (seen.has(item)) return;
    seen.add(item);
    for (const key of Reflect.ownKeys(item)) {
      parts.push(String(key));
      try {
        walk((item as Record<PropertyKey, unknown>)[key], depth + 1);
      } catch {
        // a getter that throws hides nothing we could print
      }
    }
  };
  walk(value, 0);
  return parts.join('\n');
}

function keepingLogger(name: string): Logger {
  const line = (level: string) => (fields: Record<string, unknown>, message: string) =>
    outputs.push({ name: `${name} log`, text: `${level} ${message} ${everything(fields)}` });
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}

/** One library case: a client with `credentials`, the turns (events or errors) and the card, all kept. */
async function libraryCase(name: string, credentials: CredentialsOption, agent: string, texts: string[] = ['artifacts']): Promise<void> {
  const a2a = createA2A({ identitySecret: 'leak test identity secret 0123456789', credentials, logger: keepingLogger(name) });
  try {
    for (const text of texts) {
      const result = await lastValueFrom(a2a.turn({ agent, handle: 'h', thread: `${name}-${text}`, text }).pipe(toArray())).catch(
        (e: unknown) => e,
      );
      outputs.push({ name: `${name} turn ${text}`, text: everything(result) });
    }
    const card = await lastValueFrom(a2a.card(agent)).catch((e: unknown) => e);
    outputs.push({ name: `${name} card`, text: everything(card) });
  } finally {
    await a2a.close();
  }
}

async function cliCase(name: string, args: string[], env: Record<string, string> = {}, input?: string): Promise<void> {
  const { stdout, stderr } = await runCli(args, { env, ...(input === undefined ? {} : { input }) });
  outputs.push({ name: `${name} stdout`, text: stdout }, { name: `${name} stderr`, text: stderr });
}

beforeAll(async () => {
  agents = await startAuthAgents({ tokenTtlMs: 1_000, now: () => tokenClockMs });
});
afterAll(async () => {
  await agents.close();
});

describe('no credential value in any output', () => {
  it('of the library: events, errors and causes, cards, log lines', async () => {
    const v1 = agents.v1.baseUrl;
    const v03 = agents.v03.baseUrl;
    await libraryCase('bearer v1', { [v1]: { bearer: AUTH_SECRETS.bearer } }, agents.v1.url(AUTH_MOUNTS.bearer), ['artifacts', 'drop']);
    await libraryCase('bearer v0.3', { [v03]: { bearer: AUTH_SECRETS.bearer } }, agents.v03.url('/'), ['artifacts', 'auth']);
    await libraryCase('wrong bearer v1', { [v1]: { bearer: WRONG.bearer } }, agents.v1.url(AUTH_MOUNTS.bearer));
    await libraryCase('wrong bearer v0.3', { [v03]: { bearer: WRONG.bearer } }, agents.v03.url('/'));
    await libraryCase('forbidden', { [v1]: { bearer: AUTH_SECRETS.forbidden } }, agents.v1.url(AUTH_MOUNTS.bearer));
    await libraryCase('api key header', { [v1]: { apiKey: AUTH_SECRETS.apiKey } }, agents.v1.url(AUTH_MOUNTS.apiKey));
    await libraryCase(
      'api key header, card too',
      { [v1]: { apiKey: { value: AUTH_SECRETS.apiKey, in: 'header', name: 'X-API-Key' }, card: true } },
      agents.v1.url(AUTH_MOUNTS.apiKey),
    );
    await libraryCase(
      'api key, card too, no place',
      { [v1]: { apiKey: AUTH_SECRETS.apiKey, card: true } },
      agents.v1.url(AUTH_MOUNTS.apiKey),
    );
    await libraryCase('api key query', { [v1]: { apiKey: AUTH_SECRETS.apiKey } }, agents.v1.url(AUTH_MOUNTS.apiKeyQuery));
    await libraryCase('wrong api key header', { [v1]: { apiKey: WRONG.apiKey } }, agents.v1.url(AUTH_MOUNTS.apiKey));
    await libraryCase('wrong api key query', { [v1]: { apiKey: WRONG.apiKey } }, agents.v1.url(AUTH_MOUNTS.apiKeyQuery));
    await libraryCase('unplaceable api key', { [v1]: { apiKey: WRONG.apiKey } }, agents.v1.url(AUTH_MOUNTS.bearer));
    await libraryCase('static headers', { [v1]: { headers: { 'X-Custom': WRONG.header } } }, agents.v1.url(AUTH_MOUNTS.bearer));

    // A refreshing function: a fresh token, then (after expiry) a stale one that the agent refuses.
    let token: string | undefined;
    const oauth = async (_agent: string, card: { securitySchemes?: { tokenUrl?: string }[] } | undefined) => {
      const tokenUrl = card?.securitySchemes?.find((s) => s.tokenUrl)?.tokenUrl ?? agents.tokenUrl;
      if (token === undefined) {
        const body = new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: AUTH_SECRETS.clientId,
          client_secret: AUTH_SECRETS.clientSecret,
        });
        token = ((await (await fetch(tokenUrl, { method: 'POST', body })).json()) as { access_token: string }).access_token;
      }
      return { Authorization: `Bearer ${token}`, 'X-Custom': WRONG.header };
    };
    await libraryCase('oauth function', { [v1]: oauth }, agents.v1.url(AUTH_MOUNTS.oauth));
    tokenClockMs += 1_200; // past the token's lifetime
    await libraryCase('oauth function, expired', { [v1]: oauth }, agents.v1.url(AUTH_MOUNTS.oauth));
    // The token was taken, then refused once the endpoint's clock had moved past its lifetime.
    const said = (name: string): string => outputs.find((o) => o.name === name)?.text ?? '';
    expect(said('oauth function turn artifacts')).toContain("outcome: 'completed'");
    expect(said('oauth function, expired turn artifacts')).toContain('the agent refused the credentials (HTTP 401');
    // The oauth option: a token from the card's token URL; then, the endpoint's clock past its lifetime, refused
    // once and asked for again; a wrong client secret, refused by the token endpoint.
    const client = { clientId: AUTH_SECRETS.clientId, clientSecret: AUTH_SECRETS.clientSecret };
    const oauthOption: CredentialsOption = { [v1]: { oauth: client } };
    const viaOption = createA2A({
      identitySecret: 'leak test identity secret 0123456789',
      credentials: oauthOption,
      logger: keepingLogger('oauth'),
    });
    for (const [step, text] of [
      ['fresh', 'artifacts'],
      ['refused, renewed', 'drop'],
    ] as const) {
      const result = await lastValueFrom(
        viaOption.turn({ agent: agents.v1.url(AUTH_MOUNTS.oauth), handle: 'h', thread: `oauth ${step}`, text }).pipe(toArray()),
      ).catch((e: unknown) => e);
      outputs.push({ name: `oauth option ${step}`, text: everything(result) });
      tokenClockMs += 1_200;
    }
    await viaOption.close();
    expect(said('oauth option refused, renewed')).toContain("outcome: 'completed'");
    await libraryCase(
      'oauth option, wrong secret',
      { [v1]: { oauth: { ...client, clientSecret: WRONG.clientSecret } } },
      agents.v1.url(AUTH_MOUNTS.oauth),
    );
    expect(said('oauth option, wrong secret turn artifacts')).toContain('error "invalid_client"');
    await libraryCase(
      'function that throws',
      { [v1]: { headers: () => Promise.reject(new Error('token endpoint down')), card: true } },
      agents.v1.url(AUTH_MOUNTS.oauth),
    );

    // Another origin: the card's origin is configured, the interface's is not.
    const pointing = await startRawAgent((_req, res) =>
      sendJson(res, {
        name: 'elsewhere',
        version: '1',
        capabilities: { streaming: true },
        supportedInterfaces: [
          { url: `${agents.v1.url(AUTH_MOUNTS.bearer)}a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        ],
        skills: [],
      }),
    );
    await libraryCase('another origin', { [new URL(pointing.url).origin]: { bearer: AUTH_SECRETS.bearer } }, pointing.url);
    await pointing.close();

    // An agent that echoes the credentials back in its challenge and its JSON-RPC error.
    const echoing = await startRawAgent((req, res, { base, rpc }) => {
      if (rpc === undefined) {
        return sendJson(res, bareCard(base, 'echo', { capabilities: { streaming: rpc === undefined } }));
      }
      const said = `${req.headers['authorization'] ?? ''} ${req.headers['x-custom'] ?? ''}`;
      if (rpc.method === 'SendStreamingMessage') {
        return sendJson(
          res,
          { jsonrpc: '2.0', id: rpc.id, error: { code: -32600, message: `bad: ${said}` } },
          { 'www-authenticate': `Bearer error="${said}"` },
          401,
        );
      }
      sendJson(res, { jsonrpc: '2.0', id: rpc.id, error: { code: -31401, message: `unauthenticated: ${said}` } });
    });
    await libraryCase(
      'echoing agent',
      { [new URL(echoing.url).origin]: { bearer: AUTH_SECRETS.bearer, headers: { 'X-Custom': WRONG.header } } },
      echoing.url,
    );
    await echoing.close();

    // The background CancelTask of an abandoned turn.
    const a2a = createA2A({
      identitySecret: 'leak test identity secret 0123456789',
      credentials: { [v1]: { bearer: AUTH_SECRETS.bearer } },
      logger: keepingLogger('abandoned'),
    });
    const from = agents.v1.received.length;
    const left = a2a.turn({ agent: agents.v1.url(AUTH_MOUNTS.bearer), handle: 'h', thread: 'left', text: 'slow' }).subscribe();
    await eventually(() => agents.v1.received.slice(from).some((r) => r.method === 'SendStreamingMessage'));
    left.unsubscribe();
    await a2a.close();
    expect(agents.v1.received.slice(from).some((r) => r.method === 'CancelTask')).toBe(true);

    expect(outputs.some((o) => o.text.includes('the agent refused the credentials'))).toBe(true);
    expect(outputs.some((o) => o.text.includes('another origin'))).toBe(true);
    expect(outputs.some((o) => o.text.includes('cancelling the abandoned task'))).toBe(true);
    expect(agents.issuer.issued.length).toBeGreaterThan(0);
  });

  it('of the command: stdout and stderr of send (--json, --verbose, --debug), card and chat', async () => {
    const env = { GOOD: AUTH_SECRETS.bearer, BAD: WRONG.bearer };
    const bearer = agents.v1.url(AUTH_MOUNTS.bearer);
    const apiKey = agents.v1.url(AUTH_MOUNTS.apiKey);
    // Eleven processes, side by side (one after another they take a minute on a loaded machine).
    await Promise.all([
      cliCase('send good', ['send', bearer, '--json', '--verbose', '--bearer-env', 'GOOD', 'drop'], env),
      cliCase('send bad', ['send', bearer, '--json', '--verbose', '--bearer-env', 'BAD', 'artifacts'], env),
      cliCase('send v0.3 bad', ['send', agents.v03.url('/'), '--a2a-version', '0.3', '--verbose', '--bearer-env', 'BAD', 'artifacts'], env),
      cliCase('send api key', ['send', apiKey, '--json', '--verbose', '-H', `X-API-Key: ${AUTH_SECRETS.apiKey}`, 'artifacts']),
      cliCase('send wrong api key', ['send', apiKey, '--json', '--verbose', '-H', `X-API-Key: ${WRONG.apiKey}`, 'artifacts']),
      cliCase('send header', [
        'send',
        bearer,
        '--verbose',
        '-H',
        `X-Custom: ${WRONG.header}`,
        '-H',
        `Authorization: Bearer ${AUTH_SECRETS.forbidden}`,
        'hi',
      ]),
      cliCase('card good', ['card', bearer, '--verbose', '--bearer-env', 'GOOD'], env),
      cliCase('card good json', ['card', agents.v03.url('/'), '-o', 'json', '--verbose', '--bearer-env', 'GOOD'], env),
      cliCase('card bad', ['card', bearer, '--verbose', '--bearer-env', 'BAD'], env),
      cliCase('chat good', ['chat', agents.v03.url('/'), '--verbose', '--bearer-env', 'GOOD'], env, 'artifacts\nauth\n'),
      cliCase('chat bad', ['chat', bearer, '--verbose', '-H', `Authorization: Bearer ${WRONG.bearer}`], env, 'artifacts\n'),
    ]);
    expect(outputs.some((o) => o.text.includes('refused the credentials'))).toBe(true);
    expect(outputs.some((o) => o.text.includes('a bearer token (Authorization header)'))).toBe(true);
  }, 90_000);

  it('of --debug: the wire on stderr with the credentials redacted, whatever else is asked', async () => {
    const env = { GOOD: AUTH_SECRETS.bearer };
    const bearer = agents.v1.url(AUTH_MOUNTS.bearer);
    const apiKey = ['-H', `X-API-Key: ${AUTH_SECRETS.apiKey}`];
    const inQuery = `${agents.v1.url(AUTH_MOUNTS.apiKeyQuery)}?api_key=${AUTH_SECRETS.apiKey}`;
    await Promise.all([
      cliCase('send debug', ['send', bearer, '--debug', '--verbose', '--stream', '--bearer-env', 'GOOD', 'artifacts'], env),
      cliCase('send debug api key', ['send', agents.v1.url(AUTH_MOUNTS.apiKey), '--debug', '-o', 'json', ...apiKey, 'artifacts']),
      cliCase('send debug query key', ['send', inQuery, '--debug', 'artifacts']),
    ]);
    expect(outputs.filter((o) => o.name.startsWith('send debug') && o.text.includes('a4h: debug: #1 → GET'))).toHaveLength(3);
  }, 60_000);

  it('searched for every value in play', () => {
    const secrets = [
      AUTH_SECRETS.bearer,
      AUTH_SECRETS.forbidden,
      AUTH_SECRETS.apiKey,
      AUTH_SECRETS.clientSecret,
      ...Object.values(WRONG),
      ...agents.issuer.issued,
      encodeURIComponent(AUTH_SECRETS.apiKey),
    ];
    expect(outputs.length).toBeGreaterThan(40);
    const leaks = outputs.flatMap((output) =>
      secrets.filter((secret) => output.text.includes(secret)).map((secret) => `${output.name}: ${secret}`),
    );
    expect(leaks).toEqual([]);
  });
});
