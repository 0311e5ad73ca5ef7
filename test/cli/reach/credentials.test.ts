import { describe, expect, it } from 'vitest';
import { AUTH_MOUNTS, AUTH_SECRETS, MEMBERS_SKILL, startAuthAgents, type AuthAgents } from '../../../fixtures/agent-auth.js';
import { REPLY } from '../../../fixtures/index.js';
import { blocksOf, jsonLines, runCli } from '../run-cli.js';
import { useAgent } from '../../agent-rig.js';

let agents: AuthAgents;
useAgent(startAuthAgents, (a) => (agents = a));

const TOKEN_ENV = { A4H_TEST_TOKEN: AUTH_SECRETS.bearer };

describe('a4h send with credentials', () => {
  it('--bearer-env: the token from the environment on every request to the agent', async () => {
    const from = agents.v1.received.length;
    const { code, stdout } = await runCli(['send', agents.v1.url(AUTH_MOUNTS.bearer), '--bearer-env', 'A4H_TEST_TOKEN', 'artifacts'], {
      env: TOKEN_ENV,
    });
    expect(blocksOf(stdout)).toBe(REPLY.artifacts);
    expect(code).toBe(0);
    // Every request, the card fetch included (the flags are for this agent's origin).
    const calls = agents.v1.received.slice(from);
    expect(calls.map((r) => r.method)).toEqual(expect.arrayContaining(['GET /.well-known/agent-card.json', 'SendStreamingMessage']));
    for (const request of calls) expect(request.headers['authorization']).toBe(`Bearer ${AUTH_SECRETS.bearer}`);
  });

  it('-H, repeatable: each header on every request (an API key, here)', async () => {
    const from = agents.v1.received.length;
    const { code, stdout } = await runCli([
      'send',
      agents.v1.url(AUTH_MOUNTS.apiKey),
      '-H',
      `X-API-Key: ${AUTH_SECRETS.apiKey}`,
      '--header',
      'X-Trace: cli-test',
      'artifacts',
    ]);
    expect(blocksOf(stdout)).toBe(REPLY.artifacts);
    expect(code).toBe(0);
    const [call] = agents.v1.received.slice(from).filter((r) => r.method === 'SendStreamingMessage');
    expect(call?.headers).toMatchObject({ 'x-api-key': AUTH_SECRETS.apiKey, 'x-trace': 'cli-test' });
  });

  it('refused credentials: exit 4 and one line naming the scheme, what was sent and the challenge', async () => {
    const { code, stdout, stderr } = await runCli(['send', agents.v1.url(AUTH_MOUNTS.apiKey), '--json', 'artifacts']);
    expect(code).toBe(4);
    expect(jsonLines(stdout).map((l) => l['type'])).toEqual(['start', 'error']);
    expect(jsonLines(stdout).at(-1)).toMatchObject({ kind: 'auth' });
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('the agent refused the credentials (HTTP 401, WWW-Authenticate: ApiKey header="X-API-Key")');
    expect(stderr).toContain('the card declares apiKeyAuth (API key in header X-API-Key, required); sent: none');
  });

  it('--bearer-env naming an unset variable, or a malformed -H: bad usage (2), no value repeated', async () => {
    const unset = await runCli(['send', agents.v1.url(AUTH_MOUNTS.bearer), '--bearer-env', 'A4H_NOT_SET', 'hi']);
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain('--bearer-env A4H_NOT_SET: that environment variable is not set or empty');
    const malformed = await runCli(['send', agents.v1.url(AUTH_MOUNTS.bearer), '-H', 'no-colon-secret-4d5e6f', 'hi']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain("--header takes 'Name: value'");
    expect(malformed.stderr).not.toContain('no-colon-secret-4d5e6f');
  });
});

describe('a4h card: security schemes and credentials', () => {
  it('without credentials: the schemes the card declares, none configured, the public card', async () => {
    const { code, stdout } = await runCli(['card', agents.v1.url(AUTH_MOUNTS.bearer)]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Security Schemes:\nbearerAuth \(HTTP Bearer, required\)$/m);
    expect(stdout).toMatch(/^Credentials: none sent \(-H, --bearer, --api-key, --oauth-client-id, a4h auth login give them\)$/m);
    expect(stdout).toMatch(/^Transport: HTTP\+JSON$/m);
    expect(stdout).not.toContain(MEMBERS_SKILL.name);
  });

  it('with credentials: which kind is sent where, and the authenticated extended card', async () => {
    const { code, stdout } = await runCli(['card', agents.v1.url(AUTH_MOUNTS.bearer), '--bearer-env', 'A4H_TEST_TOKEN'], {
      env: TOKEN_ENV,
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`^Credentials: a bearer token \\(Authorization header\\), sent to ${agents.v1.baseUrl}$`, 'm'));
    expect(stdout).toMatch(/^Card: the authenticated extended card$/m);
    expect(stdout).toMatch(/^Transport: JSONRPC$/m);
    expect(stdout).toMatch(new RegExp(`^Skills:\n(.+\n)*${MEMBERS_SKILL.name}`, 'm'));
  });

  it('a v0.3 agent: the schemes, the kind of credential and the extended card too; -o json the card as served', async () => {
    const { code, stdout } = await runCli(['card', agents.v03.url('/'), '--bearer-env', 'A4H_TEST_TOKEN'], { env: TOKEN_ENV });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Name: v03-bearer \(extended\)$/m);
    expect(stdout).toMatch(/^Card: the authenticated extended card$/m);
    expect(stdout).toMatch(/^Credentials: a bearer token \(Authorization header\), sent to /m);
    expect(stdout).toMatch(/^Security Schemes:\nbearerAuth \(HTTP bearer, required\)$/m);
    const json = await runCli(['card', agents.v03.url('/'), '-o', 'json', '--bearer-env', 'A4H_TEST_TOKEN'], { env: TOKEN_ENV });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } });
  });
});

describe('a4h chat with credentials', () => {
  it('takes the same flags', async () => {
    const { code, stdout } = await runCli(['chat', agents.v03.url('/'), '--bearer-env', 'A4H_TEST_TOKEN', '--thread', 'creds'], {
      env: TOKEN_ENV,
      input: 'artifacts\n',
    });
    expect(stdout).toBe(`${REPLY.artifacts}\n`);
    expect(code).toBe(0);
  });

  it('refused: exit 4 before the first line', async () => {
    const { code, stderr } = await runCli(
      ['chat', agents.v1.url(AUTH_MOUNTS.bearer), '-H', 'Authorization: Bearer wrong-chat-token-77aa'],
      {
        input: 'artifacts\n',
      },
    );
    expect(code).toBe(4);
    expect(stderr).toContain('the agent refused the credentials');
    expect(stderr).toContain('sent: headers Authorization');
    expect(stderr).not.toContain('wrong-chat-token-77aa');
  });
});
