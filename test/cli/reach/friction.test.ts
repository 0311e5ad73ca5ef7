/**
 * The command as a new user finds it (issue 16): network errors that say their cause, `send --json`
 * that always ends with a JSON line, a piped `send` that keeps what arrived, an empty message, a
 * too-short secret in every command, and the missing-secret warning as a sentence.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startV1Agent, type FixtureAgent } from '../../../fixtures/index.js';
import { networkCause } from '../../../src/network-cause.js';
import { eventually } from '../../eventually.js';
import { lastValueFrom } from 'rxjs';
import { createA2A } from '../../../src/node/create-a2a.js';
import { jsonLines, runCli, SECRET, startCli, interruptedMidReply } from '../run-cli.js';

const TLS = new URL('../../../fixtures/tls/', import.meta.url);
let v1: FixtureAgent;
let tls: Server;
let loop: Server;
let closedPort: number;

const listen = async (server: Server): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

beforeAll(async () => {
  v1 = await startV1Agent();
  // A self-signed certificate for 127.0.0.1 (fixtures/tls, made with openssl, valid for 100 years).
  tls = createHttpsServer(
    { key: readFileSync(new URL('self-signed.key', TLS)), cert: readFileSync(new URL('self-signed.crt', TLS)) },
    (_req, res) => res.end('{}'),
  );
  // Every request is redirected to itself.
  loop = createHttpServer((req, res) => res.writeHead(302, { location: req.url ?? '/' }).end());
  const closed = createHttpServer();
  closedPort = await listen(closed);
  await new Promise((resolve) => closed.close(resolve)); // nothing listens there now
  await Promise.all([listen(tls), listen(loop)]);
});
afterAll(async () => {
  await v1.close();
  tls.closeAllConnections();
  loop.closeAllConnections();
  await Promise.all([new Promise((r) => tls.close(r)), new Promise((r) => loop.close(r))]);
});

const oneLine = (stderr: string) => {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0]!;
};

describe('a network error says its cause in its one line, without --verbose', () => {
  it('refused: a closed port on 127.0.0.1', async () => {
    const { code, stderr } = await runCli(['send', `http://127.0.0.1:${closedPort}/`, 'hi']);
    expect(code).toBe(3);
    expect(stderr).toMatch(/^Error: A2ACLI_ERR_UNREACHABLE\nMessage: could not fetch the agent card .*: connection refused/);
  });
  it('blocked port: fetch refuses :6000 without any I/O', async () => {
    const { stderr } = await runCli(['card', 'http://127.0.0.1:6000/']);
    expect(stderr).toMatch(/^Message: .*: blocked port/m);
  });
  it('certificate: a self-signed TLS server on 127.0.0.1', async () => {
    const { code, stderr } = await runCli(['send', `https://127.0.0.1:${(tls.address() as AddressInfo).port}/`, 'hi']);
    expect(code).toBe(3);
    expect(stderr).toMatch(/^Message: .*: certificate not trusted: it is self-signed$/m);
  });
  it('redirect loop', async () => {
    const { stderr } = await runCli(['card', `http://127.0.0.1:${(loop.address() as AddressInfo).port}/`]);
    expect(stderr).toMatch(/^Message: .*too many redirects/m);
  });
  it('unknown host (no DNS in tests: the mapping, on the error undici throws)', () => {
    const lookup = Object.assign(new Error('getaddrinfo ENOTFOUND agent.invalid'), { code: 'ENOTFOUND' });
    expect(networkCause(new TypeError('fetch failed', { cause: lookup }))).toBe('unknown host');
    const again = Object.assign(new Error('getaddrinfo EAI_AGAIN agent.example'), { code: 'EAI_AGAIN' });
    expect(networkCause(new Error('card', { cause: new TypeError('fetch failed', { cause: again }) }))).toMatch(/^unknown host/);
    expect(networkCause(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]))).toMatch(/refused/);
    expect(networkCause(new Error('plain'))).toBeUndefined();
  });
});

describe('send --json always ends with a JSON line', () => {
  it('an error: {"type":"error","kind","message"}', async () => {
    const { stdout } = await runCli(['send', `http://127.0.0.1:${closedPort}/`, '--json', 'hi']);
    expect(jsonLines(stdout).at(-1)).toMatchObject({ type: 'error', kind: 'card', message: expect.stringMatching(/connection refused/) });
  });
  it('a timeout: kind timeout', async () => {
    const { code, stdout } = await runCli(['send', v1.url('/'), '--json', '--timeout', '0.5', '--thread', 'json-timeout', 'slow']);
    expect(code).toBe(5);
    expect(jsonLines(stdout).at(-1)).toMatchObject({ type: 'error', kind: 'timeout' });
  });
  it('a cancel (SIGINT): kind aborted', async () => {
    const { code, stdout } = await interruptedMidReply(['send', v1.url('/'), '--json', '--thread', 'json-cancel', 'slow']);
    expect(code).toBe(1);
    expect(jsonLines(stdout).at(-1)).toMatchObject({ type: 'error', kind: 'aborted', message: expect.stringMatching(/cancelled/) });
  });
});

describe('a piped send --stream keeps what arrived', () => {
  it('before a timeout (exit 5)', async () => {
    const { code, stdout } = await runCli(['send', v1.url('/'), '--stream', '--timeout', '2', '--thread', 'piped-timeout', 'slow']);
    expect(code).toBe(5);
    expect(stdout).toMatch(/^Artifact: ticks\ntick 1/m);
  });
  it('before Ctrl-C', async () => {
    const from = v1.received.length;
    const run = startCli(['send', v1.url('/'), '--stream', '--thread', 'piped-cancel', 'slow']);
    // The message reached the agent (the command listens for Ctrl-C by then); a few ticks (100 ms each) follow.
    await eventually(() => v1.received.slice(from).some((r) => r.method === 'SendStreamingMessage'), 10_000);
    await new Promise((resolve) => setTimeout(resolve, 350));
    run.child.kill('SIGINT');
    const { code, stdout, stderr } = await run.result;
    expect(code).toBe(1);
    expect(stderr).toContain('Error: A4H_ERR_CANCELLED');
    expect(stdout).toMatch(/^Artifact: ticks\ntick 1/m);
  });
});

describe('input and the secret', () => {
  it('send URL "" says the message is empty (exit 2)', async () => {
    const { code, stderr } = await runCli(['send', v1.url('/'), '']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/the message is empty/);
  });
  it.each(['send', 'chat', 'card', 'context'])('a too-short secret: %s exits 2, without showing it', async (command) => {
    const args = command === 'context' ? ['context', 'h', 'k'] : command === 'send' ? ['send', v1.url('/'), 'hi'] : [command, v1.url('/')];
    const { code, stderr } = await runCli(args, { env: { A4H_IDENTITY_SECRET: 'hunter2-short' }, input: '' });
    expect(code).toBe(2);
    expect(stderr).toMatch(/at least 16 bytes/);
    expect(stderr).not.toContain('hunter2');
  });
  it('send --thread without a secret is refused: its contextId could not continue in the next run (exit 2)', async () => {
    const { code, stderr } = await runCli(['send', v1.url('/'), '--thread', 'no-secret', 'artifacts'], {
      env: { A4H_IDENTITY_SECRET: undefined },
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^Message: --thread derives the contextId from A4H_IDENTITY_SECRET, which is not set/m);
  });
  it('the missing-secret warning is one sentence naming the variable', async () => {
    const { stderr } = await runCli(['chat', v1.url('/'), '--thread', 'no-secret'], {
      env: { A4H_IDENTITY_SECRET: undefined },
      input: 'artifacts\n',
    });
    expect(stderr.split('\n').filter((line) => line.includes('warning'))).toEqual([
      'a4h: warning: No identity secret is set (A4H_IDENTITY_SECRET), so a random key is used for this process: conversations will not continue after a restart.',
    ]);
  });
});

describe('the command as the issue found it (a closed pipe, slash commands, usage mistakes)', () => {
  const cancels = () => v1.received.filter((r) => r.method === 'CancelTask').length;
  /** The texts of the messages the fixture agent received on `thread`'s turns since `from`. */
  const sentTexts = (from: number) =>
    v1.received
      .slice(from)
      .filter((r) => /SendStreamingMessage|SendMessage/.test(r.method))
      .map((r) => (r.params as { message: { parts: { text?: string }[] } }).message.parts.map((p) => p.text ?? '').join(''));

  it('send --json … | head -1: a closed stdout ends it quietly, exit 0, and the turn is cancelled at the agent', async () => {
    const before = cancels();
    const run = startCli(['send', v1.url('/'), '--json', '--thread', 'epipe', 'slow']);
    await run.waitFor(/"type":"text"/);
    run.child.stdout!.destroy(); // the reader left, as head does after its line
    const { code, stderr } = await run.result;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    await eventually(() => cancels() === before + 1, 5_000);
  });

  it('chat: /help lists the commands; an unknown /word is refused with a hint, not sent; //text sends a leading slash', async () => {
    const from = v1.received.length;
    const { code, stderr } = await runCli(['chat', v1.url('/'), '--thread', 'slashes'], {
      input: '/help\n/frobnicate now\n//etc is a path\n',
    });
    expect(code).toBe(0);
    expect(stderr).toContain('/attach PATH');
    expect(stderr).toContain('//text');
    expect(stderr).toMatch(/unknown command \/frobnicate: \/help lists them; \/\/frobnicate now sends the line as it is/);
    expect(sentTexts(from)).toEqual(['/etc is a path']);
  });

  it('an agent without its scheme: a bare host:port is http:// on loopback, as on every command', async () => {
    const { code, stderr } = await runCli(['send', `127.0.0.1:${closedPort}`, 'hi']);
    expect(code).toBe(3);
    expect(stderr).toContain(`could not fetch the agent card from http://127.0.0.1:${closedPort}/.well-known/agent-card.json`);
  });

  it.each([
    [['send', 'http://127.0.0.1:9/', '--bogus', 'hi'], 'unknown option --bogus'],
    [['send', 'http://127.0.0.1:9/', ''], 'the message is empty: say something'],
    [['send', '', 'hi'], 'send needs the agent: its URL or host:port (or -a/--agent-card REF)'],
  ])('send: a usage mistake is its code, its message and the help to read, exit 2: %j', async (args, message) => {
    const { code, stderr } = await runCli(args);
    expect(code).toBe(2);
    expect(stderr).toBe(`Error: A2ACLI_ERR_USAGE\nMessage: ${message}\nHint: a4h send --help\n`);
  });

  it.each([
    [['chat', v1?.url('/') ?? '', '--thread'], 'a4h: error: --thread needs a value (a4h chat --help for its options)'],
    [['chat', v1?.url('/') ?? '', '--json=yes'], 'a4h: error: unknown option --json (a4h chat --help for its options)'],
    [['frobnicate'], 'a4h: error: unknown command "frobnicate" (a4h --help lists the commands)'],
  ])('a usage mistake is one line and a hint, exit 2: %j', async (args, line) => {
    const { code, stderr } = await runCli(args);
    expect(code).toBe(2);
    expect(oneLine(stderr)).toBe(line);
  });

  it.each([
    [
      ['card', v1?.url('/') ?? '', '--json'],
      'card',
      "--json is a4h's turn events (a4h send, a4h resume): this command prints JSON with -o json",
    ],
    [['task', 'get', '-a', 'http://127.0.0.1:9/'], 'task get', 'task get needs exactly one task id'],
    [['task', 'list', '--page-size', '0', '-a', 'http://127.0.0.1:9/'], 'task list', '--page-size must be a whole number from 1 to 100'],
  ])(
    'the specification’s commands tell a usage mistake as they tell every failure (its fields), exit 2: %j',
    async (args, command, message) => {
      const { code, stderr } = await runCli(args);
      expect(code).toBe(2);
      expect(stderr).toBe(`Error: A2ACLI_ERR_USAGE\nMessage: ${message}\nHint: a4h ${command} --help\n`);
    },
  );

  it("a4h --help says where each command's options are", async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('a4h <command> --help (e.g. a4h send --help)');
  });
});

describe('an agent URL that is a transport’s (issue 31)', () => {
  it('send to the URL `a4h card` shows as the transport: the 404 says to give the base URL, and which', async () => {
    const transport = /^URL: (.*)$/m.exec((await runCli(['card', v1.url('/')])).stdout)![1]!;
    expect(new URL(transport).pathname).not.toBe('/');
    const { code, stderr } = await runCli(['send', transport, 'hi']);
    expect(code).toBe(3);
    const origin = new URL(transport).origin;
    expect(stderr.split('\n')[1]).toBe(
      `Message: no agent card at ${transport.replace(/\/?$/, '/')}.well-known/agent-card.json (HTTP 404), nor at ${transport.replace(/\/?$/, '/')}.well-known/agent.json (the path of A2A v0.2 and earlier; HTTP 404): give the agent's base URL, not a transport's (perhaps ${origin}/)`,
    );
  });

  it('a 404 at a base URL without a path: no such hint', async () => {
    const empty = createHttpServer((_req, res) => res.writeHead(404).end());
    const port = await listen(empty);
    try {
      const { stderr } = await runCli(['send', `http://127.0.0.1:${port}/`, 'hi']);
      expect(stderr.split('\n')[1]).toBe(
        `Message: no agent card at http://127.0.0.1:${port}/.well-known/agent-card.json (HTTP 404), nor at http://127.0.0.1:${port}/.well-known/agent.json (the path of A2A v0.2 and earlier; HTTP 404)`,
      );
    } finally {
      await new Promise((resolve) => empty.close(resolve));
    }
  });
});

describe("send --json's error line says what the library's error says (issue 31)", () => {
  /** The fields a caller decides on: kind, retryable, and the status and timeout phase when known. */
  const decisive = (error: Record<string, unknown>) =>
    Object.fromEntries(['kind', 'retryable', 'status', 'phase'].filter((key) => error[key] !== undefined).map((key) => [key, error[key]]));
  const libraryError = async (agent: string, text: string, turnTimeoutMs?: number) => {
    const client = createA2A({ identitySecret: SECRET, ...(turnTimeoutMs ? { policy: { turnTimeoutMs } } : {}) });
    try {
      await lastValueFrom(client.turn({ agent, handle: 'default', thread: 'json-parity', text }));
      throw new Error('the turn ended without an error');
    } catch (error) {
      return decisive(error as unknown as Record<string, unknown>);
    } finally {
      await client.close();
    }
  };

  it('a card fetch that meets a refused connection', async () => {
    const agent = `http://127.0.0.1:${closedPort}/`;
    const line = jsonLines((await runCli(['send', agent, '--json', '--thread', 'json-parity', 'hi'])).stdout).at(-1)!;
    expect(decisive(line)).toEqual(await libraryError(agent, 'hi'));
    // An agent restarting refuses connections: a caller that retries on `retryable` tries again.
    expect(line).toMatchObject({ type: 'error', kind: 'card', retryable: true });
  });

  it('a turn that timed out (its phase too)', async () => {
    const line = jsonLines(
      (await runCli(['send', v1.url('/'), '--json', '--timeout', '0.5', '--thread', 'json-parity', 'slow'])).stdout,
    ).at(-1)!;
    expect(decisive(line)).toEqual(await libraryError(v1.url('/'), 'slow', 500));
    expect(line).toMatchObject({ type: 'error', kind: 'timeout', phase: 'turn' });
  });
});
