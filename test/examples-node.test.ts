/**
 * The Node examples (examples/node), each run as a program of its own against the demo agent, from
 * their folder: they import `a4h-a2a/node` by the package's name, which Node resolves to this
 * checkout through the package's `exports` (a self-reference), so the built library is needed
 * (`npm run build`).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastValueFrom } from 'rxjs';
import { startDemoAgent } from '../demo/agent.js';
import { createA2A } from '../src/client/create-a2a.js';
import type { DemoAgent } from '../demo/agent.js';
import { ROOT } from './packed.js';

const EXAMPLES = join(ROOT, 'examples', 'node');
const SECRET = 'node-examples-test-secret-0123456789';
const NO_SECRET = /No identity secret is set \(A4H_IDENTITY_SECRET\)/;

let dir = '';
let agent: DemoAgent;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'node', 'index.js'))) throw new Error('dist/node/index.js is missing: run `npm run build` first');
  dir = await mkdtemp(join(tmpdir(), 'a4h-node-examples-'));
  agent = await startDemoAgent({ port: 0, memoryFile: join(dir, 'memory.json'), chunkDelayMs: 20 });
});

afterAll(async () => {
  await agent?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout as it came, one string per chunk read. */
  chunks: string[];
}

/** Runs `examples/node/<file> ...args` from its folder with only PATH and the given environment. */
function run(file: string, args: string[], env: Record<string, string> = { A4H_IDENTITY_SECRET: SECRET }): Promise<Run> {
  const child = spawn(process.execPath, [file, ...args], { cwd: EXAMPLES, env: { PATH: process.env.PATH ?? '', ...env } });
  const result: Run = { code: null, stdout: '', stderr: '', chunks: [] };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    result.stdout += chunk;
    result.chunks.push(chunk);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (result.stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ ...result, code });
    }),
  );
}

/** A loopback URL where nothing listens: a port just freed. */
async function closedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/`;
}

describe('examples/node/turn.mjs', () => {
  it("prints the agent's reply as it streams in, then the outcome, and exits 0", async () => {
    const result = await run('turn.mjs', [agent.url, 'hi from the example']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Hello! This is turn 1 of our conversation\. .*same thread\.\n\[completed\]\n$/);
    // Word by word: the reply came in many writes, not one at the end.
    expect(result.chunks.length).toBeGreaterThan(5);
    expect(result.chunks[0]).not.toContain('[completed]');
  });

  it('without A4H_IDENTITY_SECRET it still answers, and the client warns once that the thread will not survive a restart', async () => {
    const result = await run('turn.mjs', [agent.url], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('This is turn 1 of our conversation');
    expect(result.stderr.match(new RegExp(NO_SECRET, 'g'))).toHaveLength(1);
  });

  it('an agent that cannot be reached: one error line, exit code 1', async () => {
    const url = await closedUrl();
    const result = await run('turn.mjs', [url]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: could not fetch the agent card from http:\/\/127\.0\.0\.1:\d+\/.*connection refused.*\n$/);
  });
});

describe('examples/node/store.mjs', () => {
  /** The printed views: phase, task id (8 characters), state, outcome, the reply as JSON. */
  const views = (stdout: string) =>
    stdout
      .trimEnd()
      .split('\n')
      .map((line) => {
        const [phase, taskId, state, outcome] = line.split(/\s+/);
        return { phase, taskId, state, outcome, reply: JSON.parse(line.slice(line.indexOf('"'))) as string };
      });

  it("prints every view the store takes: running while the reply grows, then ended with the agent's outcome", async () => {
    const result = await run('store.mjs', [agent.url]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const seen = views(result.stdout);
    expect(seen[0]).toEqual({ phase: 'running', taskId: '-', state: '-', outcome: '-', reply: '' });
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ phase: 'ended', state: 'completed', outcome: 'completed' });
    expect(last.reply).toMatch(/^Hello! This is turn 1 of our conversation\./);
    const running = seen.slice(0, -1);
    expect(running.every((view) => view.phase === 'running' && view.outcome === '-')).toBe(true);
    expect(running.map((view) => view.state)).toContain('working');
    expect(running.every((view) => last.reply.startsWith(view.reply))).toBe(true);
    expect(new Set(running.map((view) => view.reply)).size).toBeGreaterThan(5);
    expect(last.taskId).toMatch(/^[\w-]{8}$/);
  });

  it("an agent that cannot be reached: the store's last view has phase error, exit code 1", async () => {
    const result = await run('store.mjs', [await closedUrl()]);
    expect(result.code).toBe(1);
    expect(views(result.stdout).at(-1)).toMatchObject({ phase: 'error', reply: '' });
    expect(result.stderr).toMatch(/^error: could not fetch the agent card .*connection refused/);
  });
});

describe('examples/node/thread.mjs', () => {
  it('three turns in one thread: the agent counts turns 1, 2, 3 and quotes the earlier messages', async () => {
    const result = await run('thread.mjs', [agent.url]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.filter((line) => line.startsWith('you › '))).toEqual([
      'you › My name is Ada.',
      'you › I like tea.',
      'you › What did I tell you?',
    ]);
    const replies = lines.filter((line) => line.startsWith('agent › '));
    expect(replies.map((line) => /turn (\d+) of our conversation/.exec(line)?.[1])).toEqual(['1', '2', '3']);
    expect(replies[2]).toContain('earlier you said: “My name is Ada.”, “I like tea.”');
  });

  it('run again with the same secret, the conversation goes on: turns 4, 5, 6', async () => {
    const result = await run('thread.mjs', [agent.url]);
    expect(result.code).toBe(0);
    const turns = [...result.stdout.matchAll(/turn (\d+) of our conversation/g)].map((match) => match[1]);
    expect(turns).toEqual(['4', '5', '6']);
  });

  it('an agent that cannot be reached: one error line after the first message, exit code 1', async () => {
    const result = await run('thread.mjs', [await closedUrl()]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('you › My name is Ada.\n');
    expect(result.stderr).toMatch(/^error: could not fetch the agent card .*connection refused.*\n$/);
  });
});

describe('examples/node/push.mjs', () => {
  it("follows the reply by the demo agent's pushes to a receiver of its own, and exits 0", async () => {
    const result = await run('push.mjs', [agent.url, 'hi by push']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('[asked the agent to post its reply]\n');
    expect(result.stdout).toMatch(/^Hello! This is turn 1 of our conversation\. .*same thread\.\n\[completed; (\d+) pushes taken\]\n$/);
    expect(Number(/(\d+) pushes taken/.exec(result.stdout)![1])).toBeGreaterThan(3);
  });
});

describe('examples/node/second-message.mjs (the snippet of docs/ui.md)', () => {
  it('the docs show its code', () => {
    const program = readFileSync(join(EXAMPLES, 'second-message.mjs'), 'utf8');
    const docs = readFileSync(join(ROOT, 'docs', 'ui.md'), 'utf8');
    const snippet = /## One message at a time, by choice[\s\S]*?```js\n([\s\S]*?)```/.exec(docs)?.[1];
    expect(snippet).toBeDefined();
    expect(program).toContain(snippet!.trimEnd());
  });

  it('queue (the default): both messages answered, in order', async () => {
    const result = await run('second-message.mjs', [agent.url]);
    expect([result.code, result.stderr]).toEqual([0, '']);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.map((line) => /→ (\w+): .*turn (\d+)/.exec(line)?.slice(1))).toEqual([
      ['completed', '1'],
      ['completed', '2'],
    ]);
  });

  it('supersede: the first reply ends (aborted), the second is answered', async () => {
    const result = await run('second-message.mjs', [agent.url, 'supersede']);
    expect(result.code).toBe(0);
    const [first, second] = result.stdout.trimEnd().split('\n');
    expect(first).toMatch(/^Tell me about tea\. → aborted: .*superseded/);
    expect(second).toMatch(/^And coffee\? → completed: /);
  });
});

/** A chat platform's message API on loopback: at most one request per `gapMs` (else 429, Retry-After 1). */
async function fakePlatform(gapMs: number) {
  const messages = new Map<string, string>();
  let last = -Infinity;
  let limited = 0;
  let ids = 0;
  const server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      const now = performance.now();
      if (now - last < gapMs) {
        limited++;
        res.writeHead(429, { 'retry-after': '1' }).end();
        return;
      }
      last = now;
      const id = req.url?.split('/')[2];
      const text = body ? (JSON.parse(body) as { text: string }).text : '';
      if (req.method === 'POST') {
        const created = String(++ids);
        messages.set(created, text);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: created }));
      } else if (id !== undefined && messages.has(id)) {
        if (req.method === 'DELETE') messages.delete(id);
        else messages.set(id, text);
        res.writeHead(200).end();
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    messages: () => [...messages.values()],
    limited: () => limited,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('examples/node/platform.mjs: a reply streamed into chat platform messages', () => {
  it('the docs show its code', () => {
    const program = readFileSync(join(EXAMPLES, 'platform.mjs'), 'utf8');
    const docs = readFileSync(join(ROOT, 'docs', 'ui.md'), 'utf8');
    const snippet = /## Chat platforms[\s\S]*?```js\n([\s\S]*?)```/.exec(docs)?.[1];
    expect(snippet).toBeDefined();
    expect(program).toContain(snippet!.trimEnd());
  });

  it('edited within the rate limit, split past the length limit: the messages hold exactly the reply', async () => {
    const platform = await fakePlatform(200);
    try {
      const result = await run('platform.mjs', [platform.url, agent.url, 'Tell me a story.', '--max-length', '60', '--per-second', '4']);
      expect([result.code, result.stderr]).toEqual([0, '']);
      const [, count, length] = /^(\d+) message\(s\), (\d+) characters\n$/.exec(result.stdout) ?? [];
      const messages = platform.messages();
      expect(messages.length).toBe(Number(count));
      expect(messages.length).toBeGreaterThan(1);
      expect(messages.join('').length).toBe(Number(length));
      expect(messages.every((text) => text.length <= 60)).toBe(true);
      expect(platform.limited()).toBe(0);
    } finally {
      await platform.close();
    }
  });

  it('faster than the platform allows: its 429s are waited out, and the messages still end exact', async () => {
    const platform = await fakePlatform(200);
    try {
      const result = await run('platform.mjs', [platform.url, agent.url, 'Tell me a story.', '--max-length', '60', '--per-second', '50']);
      expect([result.code, result.stderr]).toEqual([0, '']);
      const length = Number(/, (\d+) characters/.exec(result.stdout)?.[1]);
      expect(platform.limited()).toBeGreaterThan(0);
      expect(platform.messages().join('').length).toBe(length);
      expect(platform.messages().every((text) => text.length <= 60)).toBe(true);
    } finally {
      await platform.close();
    }
  });
});

describe('examples/node/history.mjs', () => {
  it("a thread's whole past, oldest first, two exchanges a page: what was said and each reply as it ended", async () => {
    // Three turns on a thread of its own, said by this process (the example's handle and the same secret).
    const client = createA2A({ identitySecret: SECRET });
    const said = ['My name is Ada.', 'I like tea.', 'What did I tell you?'];
    for (const text of said) await lastValueFrom(client.turn({ agent: agent.url, handle: 'demo', thread: 'history-example', text }));
    await client.close();
    const result = await run('history.mjs', [agent.url, 'history-example']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.filter((line) => line.startsWith('you › '))).toEqual(said.map((text) => `you › ${text}`));
    const replies = lines.filter((line) => line.startsWith('agent › '));
    expect(replies.map((line) => /turn (\d+) of our conversation/.exec(line)?.[1])).toEqual(['1', '2', '3']);
    expect(replies.every((line) => line.endsWith('[completed]'))).toBe(true);
  });
});
