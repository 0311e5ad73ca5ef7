/**
 * `a4h send` on the wire, as the A2A CLI specification asks (its §5.2, §9.4, §9.6, §10.1, §11): the
 * card's interface order and `--transport`, the tenant, `A2A-Version`, `--debug` with credentials
 * redacted, the error envelope the same on every binding, the exit statuses, `-v` and `--help`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MOUNTS, AUTH_SECRETS, startAuthAgents, type AuthAgents } from '../../../fixtures/agent-auth.js';
import { startGrpcAgent, type GrpcFixtureAgent } from '../../../fixtures/agent-grpc.js';
import { REPLY, startV03Agent, startV1Agent, V1_TENANT, type FixtureAgent } from '../../../fixtures/index.js';
import { runCli } from '../run-cli.js';

let v1: FixtureAgent;
let v03: FixtureAgent;
let auth: AuthAgents;
let grpc: GrpcFixtureAgent;
beforeAll(async () => {
  [v1, v03, auth, grpc] = await Promise.all([startV1Agent(), startV03Agent(), startAuthAgents(), startGrpcAgent()]);
});
afterAll(async () => {
  await Promise.all([v1.close(), v03.close(), auth.close(), grpc.close()]);
});

const methodsSince = (agent: FixtureAgent, from: number) => agent.received.slice(from).map((r) => r.method);
const envelope = (stdout: string) => (JSON.parse(stdout) as { error: { code: string; hint: string | null; a2aCode: unknown } }).error;

describe('transport and version (§11)', () => {
  it('the card’s first interface by default; --transport, repeatable and ordered, the first the card offers', async () => {
    // The card lists JSON-RPC, then HTTP+JSON.
    let from = v1.received.length;
    expect((await runCli(['send', v1.url('/'), 'message'])).code).toBe(0);
    expect(methodsSince(v1, from)).toContain('SendStreamingMessage');
    from = v1.received.length;
    expect((await runCli(['send', v1.url('/'), '--transport', 'GRPC', '--transport', 'HTTP+JSON', 'message'])).code).toBe(0);
    expect(methodsSince(v1, from)).toContain('POST /message:stream');
    expect(methodsSince(v1, from)).not.toContain('SendStreamingMessage');
    const bad = await runCli(['send', v1.url('/'), '--transport', 'carrier-pigeon', 'message']);
    expect(bad.code).toBe(2);
  }, 60_000);

  it('the chosen interface’s tenant on every request', async () => {
    const from = v1.received.length;
    expect((await runCli(['send', v1.url('/tenant/'), 'artifacts'])).code).toBe(0);
    const calls = v1.received.slice(from).filter((r) => r.mount === '/tenant/' && r.params !== undefined);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect((call.params as { tenant?: string }).tenant).toBe(V1_TENANT);
  }, 60_000);

  it('A2A-Version 1.0 on every request; a v0.3 agent is VersionNotSupportedError unless --a2a-version 0.3 allows it', async () => {
    const from = v1.received.length;
    await runCli(['send', v1.url('/'), 'artifacts']);
    for (const request of v1.received.slice(from)) expect(request.headers['a2a-version']).toBe('1.0');
    const before = v03.received.length;
    const refused = await runCli(['send', v03.url('/'), '-o', 'json', 'artifacts']);
    expect(refused.code).toBe(1);
    expect(envelope(refused.stdout)).toMatchObject({ code: 'VersionNotSupportedError', a2aCode: -32009 });
    expect(methodsSince(v03, before).every((method) => method.startsWith('GET '))).toBe(true);
    const allowed = await runCli(['send', v03.url('/'), '--a2a-version', '0.3', 'artifacts']);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain(REPLY.artifacts);
  }, 60_000);
});

describe('errors and exit statuses (§9.4, §9.6)', () => {
  it('the same A2A error on JSON-RPC and HTTP+JSON: TaskNotFoundError, exit 1', async () => {
    for (const transport of ['JSONRPC', 'HTTP+JSON']) {
      const { code, stdout } = await runCli(['send', v1.url('/'), '-o', 'json', '--transport', transport, '--task-id', 'gone', 'hi']);
      expect(code, transport).toBe(1);
      expect(envelope(stdout).code, transport).toBe('TaskNotFoundError');
    }
  }, 60_000);

  it('2 usage, 3 unreachable, 4 credentials missing or refused: each with its code, the message and a hint', async () => {
    const usage = await runCli(['send', v1.url('/'), '-o', 'json', '--async', '--stream', 'hi']);
    expect([usage.code, envelope(usage.stdout).code]).toEqual([2, 'A2ACLI_ERR_USAGE']);
    const unreachable = await runCli(['send', 'http://127.0.0.1:1/', '-o', 'json', 'hi']);
    expect([unreachable.code, envelope(unreachable.stdout).code]).toEqual([3, 'A2ACLI_ERR_UNREACHABLE']);
    const missing = await runCli(['send', auth.v1.url(AUTH_MOUNTS.apiKey), '-o', 'json', 'artifacts']);
    expect([missing.code, envelope(missing.stdout).code]).toEqual([4, 'A2ACLI_ERR_CREDENTIALS_MISSING']);
    expect(envelope(missing.stdout).hint).toContain('apiKeyAuth');
    const refused = await runCli(['send', auth.v1.url(AUTH_MOUNTS.apiKey), '-o', 'json', '-H', 'X-API-Key: wrong-key', 'artifacts']);
    expect([refused.code, envelope(refused.stdout).code]).toEqual([4, 'A2ACLI_ERR_AUTH_FAILED']);
    expect(refused.stdout + refused.stderr).not.toContain('wrong-key');
  }, 60_000);
});

describe('--debug (§5.2, §10.1)', () => {
  it('each request and answer on stderr, a stream’s events too; the bearer token and -H values never', async () => {
    const agent = auth.v1.url(AUTH_MOUNTS.bearer);
    const env = { A4H_TEST_TOKEN: AUTH_SECRETS.bearer };
    const args = ['send', agent, '--bearer-env', 'A4H_TEST_TOKEN', '-H', 'X-Secret-Header: hush-0123456789', '--stream'];
    const { code, stdout, stderr } = await runCli([...args, '--debug', 'artifacts'], { env });
    expect(code).toBe(0);
    expect(stderr).toMatch(/a4h: debug: #\d+ → GET .*agent-card\.json/);
    expect(stderr).toMatch(/a4h: debug: #\d+ → POST /);
    expect(stderr).toMatch(/a4h: debug: #\d+ {3}authorization: \[redacted\]/);
    expect(stderr).toContain('"artifactUpdate"');
    expect(stderr).not.toContain(AUTH_SECRETS.bearer);
    expect(stderr).not.toContain('hush-0123456789');
    // stdout is the same with or without it.
    const plain = await runCli([...args, 'artifacts'], { env });
    expect(stdout.replace(/[0-9a-f-]{36}/g, 'ID')).toBe(plain.stdout.replace(/[0-9a-f-]{36}/g, 'ID'));
  }, 60_000);

  it('a gRPC call too: its method, its metadata, each message both ways, its status', async () => {
    const { code, stdout, stderr } = await runCli(['send', grpc.url('/'), '--stream', '--debug', 'artifacts']);
    expect(code).toBe(0);
    expect(stdout).toContain(REPLY.artifacts);
    const call = /a4h: debug: #(\d+) → GRPC \/[\w.]*A2AService\/SendStreamingMessage\n/.exec(stderr);
    expect(call).not.toBeNull();
    const lines = stderr.split('\n').filter((line) => line.startsWith(`a4h: debug: #${call![1]} `));
    expect(lines).toContainEqual(expect.stringMatching(/ {3}a2a-version: 1\.0$/));
    expect(lines).toContainEqual(expect.stringMatching(/ {3}→ \{.*"value":"artifacts"/));
    expect(lines.filter((line) => /^a4h: debug: #\d+ {3}← \{"payload"/.test(line)).length).toBeGreaterThan(3);
    // The stream's end: the task's last event read, the client ends the call.
    expect(lines.at(-1)).toMatch(/← (OK|CANCELLED)\b.* \(\d+ ms\)$/);
  }, 60_000);
});

describe('-v/--version and --help (§5.1, §5.2, §4.5)', () => {
  it('-v, --version and send -v print the version; send --help (and help send) shows the effective defaults', async () => {
    for (const args of [['-v'], ['--version'], ['send', '-v']]) {
      const { code, stdout } = await runCli(args);
      expect([code, stdout]).toEqual([0, expect.stringMatching(/^\d+\.\d+\.\d+\n$/)]);
    }
    const { code, stdout } = await runCli(['send', '--help']);
    expect(code).toBe(0);
    expect((await runCli(['help', 'send'])).stdout).toBe(stdout);
    const defaults = stdout.slice(stdout.indexOf('Defaults'));
    for (const line of [
      /output\s+text/,
      /completion\s+wait/,
      /transport\s+the card's first interface/,
      /--a2a-version\s+the newest/,
      /TLS\s+certificates verified/,
      /detail\s+concise/,
    ]) {
      expect(defaults).toMatch(line);
    }
  }, 60_000);
});
