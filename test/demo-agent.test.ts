/**
 * The bundled demo agent (demo/), v1.0 and v0.3, driven by the raw @a2a-js/sdk client: streamed
 * chunks, memory per contextId that survives a restart, slow + cancel, forget, attach (a raw-bytes
 * file part), a corrupt memory file, CORS, and a close() that leaves no handle behind.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Part, StreamResponse, Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { startDemoAgent } from '../demo/agent.js';
import type { DemoAgent } from '../demo/agent.js';
import { MAX_CONVERSATIONS, MAX_MESSAGES, Memory } from '../demo/memory.js';
import { ATTACHMENT, chatReply, intentOf } from '../demo/reply.js';
import { isLoopback, parseServeArgs } from '../demo/serve.js';
import { handles } from '../fixtures/handles.js';
import { connectUrl, stateName, userRequest } from '../fixtures/sdk-client.js';

const PROTOCOLS = ['1.0', '0.3'] as const;
type Protocol = (typeof PROTOCOLS)[number];

let dir = '';
let memoryFile = '';
const agents: DemoAgent[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'a4h-demo-test-'));
  memoryFile = join(dir, 'nested', 'memory.json');
});

afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
  await rm(dir, { recursive: true, force: true });
});

/** Starts an agent on this test's memory file (closed after the test; closing twice is fine). */
async function start(protocol: Protocol): Promise<DemoAgent> {
  const agent = await startDemoAgent({ protocol, memoryFile, chunkDelayMs: 2 });
  agents.push(agent);
  return agent;
}

/** The conversations in the memory file, as stored. */
async function stored(): Promise<Record<string, { turns: number; messages: string[] }>> {
  const file = JSON.parse(await readFile(memoryFile, 'utf8')) as { conversations: Awaited<ReturnType<typeof stored>> };
  return file.conversations;
}

/** The raw SDK client with v0.3 compat on the card resolver and the transport (JSON-RPC unless told). */
const connect = (agent: DemoAgent, binding: 'JSONRPC' | 'HTTP+JSON' = 'JSONRPC'): Promise<Client> =>
  connectUrl(agent.url, { bindings: [binding] });

/** A user message in `contextId`. */
const request = (text: string, contextId: string) => userRequest(text, { contextId });

interface Chunk {
  artifactId: string;
  text: string;
  append: boolean;
  lastChunk: boolean;
}

/** What one streamed turn delivered. */
interface Streamed {
  /** `task:SUBMITTED`, `status:WORKING`, `artifact`, `status:COMPLETED`, … */
  kinds: string[];
  chunks: Chunk[];
  /** The artifact assembled by `append`. */
  text: string;
  taskId: string;
}

/** Reads a stream to its end (or until `stopAfter` says so). */
async function read(stream: AsyncGenerator<StreamResponse>, stopAfter?: (s: Streamed) => boolean): Promise<Streamed> {
  const out: Streamed = { kinds: [], chunks: [], text: '', taskId: '' };
  for await (const event of stream) {
    const p = event.payload;
    if (p?.$case === 'task') {
      out.taskId = p.value.id;
      out.kinds.push(`task:${stateName(p.value.status?.state)}`);
    } else if (p?.$case === 'statusUpdate') {
      out.kinds.push(`status:${stateName(p.value.status?.state)}`);
    } else if (p?.$case === 'artifactUpdate') {
      const parts = p.value.artifact?.parts ?? [];
      const text = parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
      const { append, lastChunk } = p.value;
      out.chunks.push({ artifactId: p.value.artifact?.artifactId ?? '', text, append, lastChunk });
      out.text = append ? out.text + text : text;
      if (out.kinds.at(-1) !== 'artifact') out.kinds.push('artifact');
    } else {
      out.kinds.push(p?.$case ?? 'unknown');
    }
    if (stopAfter?.(out)) break;
  }
  return out;
}

/** Sends `text` in `contextId` and reads the whole streamed answer. */
async function say(client: Client, text: string, contextId: string): Promise<Streamed> {
  return read(client.sendMessageStream(request(text, contextId)));
}

/** The handles these tests count: live sockets, servers and timers of this process. */
const ALIVE = /^(TCPServerWrap|TCPSocketWrap|Timeout)$/;

/**
 * Polls {@link handles} (from setImmediate: inside a timer's callback that timer still counts) for up
 * to a second until `done` holds, since short-lived timers of the test runner come and go.
 */
async function settledHandles(done: (counts: Map<string, number>) => boolean): Promise<Map<string, number>> {
  for (let i = 0; i < 20 && !done(handles(ALIVE)); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return handles(ALIVE);
}

const noTimers = (counts: Map<string, number>): boolean => !counts.has('Timeout');

describe.each(PROTOCOLS)('demo agent, A2A v%s', (protocol) => {
  it('streams the answer as word chunks on one artifact, and the first turn says "turn 1"', async () => {
    const client = await connect(await start(protocol));
    expect(client.protocolVersion).toMatch(protocol === '1.0' ? /^1\.0/ : /^0\.3/);
    const turn = await say(client, 'hello there', 'ctx-a');
    expect(turn.kinds).toEqual(['task:SUBMITTED', 'status:WORKING', 'artifact', 'status:COMPLETED']);
    expect(turn.chunks.length).toBeGreaterThan(5);
    expect(new Set(turn.chunks.map((c) => c.artifactId))).toEqual(new Set(['answer']));
    expect(turn.chunks.map((c) => c.append)).toEqual(turn.chunks.map((_, i) => i > 0));
    expect(turn.chunks.map((c) => c.lastChunk)).toEqual(turn.chunks.map((_, i) => i === turn.chunks.length - 1));
    expect(turn.text).toMatch(/^Hello! This is turn 1 of our conversation\./);
  });

  it('remembers the conversation by contextId, across a restart, and keeps contexts apart', async () => {
    const first = await start(protocol);
    let client = await connect(first);
    expect((await say(client, 'hello there', 'ctx-a')).text).toContain('turn 1');
    const second = await say(client, 'how are you?', 'ctx-a');
    expect(second.text).toBe('This is turn 2 of our conversation; earlier you said: “hello there”. You just said: “how are you?”.');
    await first.close();

    client = await connect(await start(protocol));
    const third = await say(client, 'still there?', 'ctx-a');
    expect(third.text).toContain('turn 3');
    expect(third.text).toContain('“hello there”, “how are you?”');
    expect((await say(client, 'hi', 'ctx-b')).text).toContain('turn 1');
  });

  it('quotes at most the last three earlier messages, each cut to 60 characters', async () => {
    const client = await connect(await start(protocol));
    const long = `a long message ${'x'.repeat(80)}`;
    for (const text of ['one', 'two', 'three', long]) await say(client, text, 'ctx-q');
    const fifth = await say(client, 'five', 'ctx-q');
    const cut = `“${long.slice(0, 59)}…”`;
    expect(fifth.text).toBe(`This is turn 5 of our conversation; earlier you said: “two”, “three”, ${cut}. You just said: “five”.`);
  });

  it('"slow" streams slowly and CancelTask ends the task CANCELED at once', async () => {
    const client = await connect(await start(protocol));
    const head = await read(client.sendMessageStream(request('slow please', 'ctx-slow')), (s) => s.chunks.length >= 1);
    const startedAt = Date.now();
    const canceled = await client.cancelTask({ tenant: '', id: head.taskId, metadata: undefined });
    expect(stateName(canceled.status?.state)).toBe('CANCELED');
    expect(Date.now() - startedAt).toBeLessThan(1_000);
    const partsNow = canceled.artifacts.flatMap((a) => a.parts).length;
    expect(partsNow).toBeGreaterThanOrEqual(1);
    expect(partsNow).toBeLessThan(3); // a slow answer has ~30 words; it got one or two out
    await new Promise((resolve) => setTimeout(resolve, 700)); // two more slow words' time
    const task = await client.getTask({ tenant: '', id: head.taskId, historyLength: 0 });
    expect(stateName(task.status?.state)).toBe('CANCELED');
    expect(task.artifacts.flatMap((a) => a.parts).length).toBe(partsNow);
    expect(noTimers(await settledHandles(noTimers))).toBe(true); // the turn stopped, its timer too
  });

  it('a cancel on the open stream ends that stream with CANCELED', async () => {
    const client = await connect(await start(protocol));
    const stream = client.sendMessageStream(request('slow', 'ctx-slow2'));
    const events: string[] = [];
    let taskId = '';
    let cancel: Promise<Task> | undefined;
    const startedAt = Date.now();
    for await (const event of stream) {
      const p = event.payload;
      if (p?.$case === 'task') taskId = p.value.id;
      if (p?.$case === 'statusUpdate') events.push(stateName(p.value.status?.state));
      if (p?.$case === 'artifactUpdate' && events.length === 1) {
        events.push('chunk');
        cancel = client.cancelTask({ tenant: '', id: taskId, metadata: undefined });
      }
    }
    expect(stateName((await cancel)?.status?.state)).toBe('CANCELED');
    expect(events).toEqual(['WORKING', 'chunk', 'CANCELED']);
    expect(Date.now() - startedAt).toBeLessThan(1_500);
    expect(noTimers(await settledHandles(noTimers))).toBe(true);
  });

  it('"attach" streams the usual answer and puts a raw-bytes PNG part after the text on its last chunk', async () => {
    const client = await connect(await start(protocol));
    const parts: { chunk: number; part: Part }[] = [];
    let chunks = 0;
    for await (const event of client.sendMessageStream(request('attach something', 'ctx-attach'))) {
      const p = event.payload;
      if (p?.$case !== 'artifactUpdate') continue;
      for (const part of p.value.artifact?.parts ?? []) parts.push({ chunk: chunks, part });
      chunks++;
    }
    const text = parts.map(({ part }) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
    expect(text).toBe(
      `Here is a small chart for you: a4h-chart.png (${ATTACHMENT.bytes.length} bytes). ${chatReply('attach something', { turn: 1, earlier: [] })}`,
    );
    const files = parts.filter(({ part }) => part.content?.$case !== 'text');
    expect(files).toHaveLength(1);
    const [{ chunk, part }] = files as [{ chunk: number; part: Part }];
    expect(chunk).toBe(chunks - 1);
    expect(parts.at(-1)?.part).toBe(part); // after the last word
    expect(part.content?.$case).toBe('raw');
    const bytes = part.content?.$case === 'raw' ? new Uint8Array(part.content.value) : new Uint8Array();
    expect(bytes).toEqual(ATTACHMENT.bytes);
    expect([...bytes.subarray(1, 4)].map((b) => String.fromCharCode(b)).join('')).toBe('PNG');
    // A real picture, not a dot: the IHDR says 160×100.
    const header = new DataView(bytes.buffer, bytes.byteOffset + 16, 8);
    expect([header.getUint32(0), header.getUint32(4)]).toEqual([160, 100]);
    expect({ filename: part.filename, mediaType: part.mediaType }).toEqual({ filename: 'a4h-chart.png', mediaType: 'image/png' });
    expect((await say(client, 'and now?', 'ctx-attach')).text).toContain('turn 2'); // remembered like any turn
  });

  it('"forget" clears the conversation', async () => {
    const client = await connect(await start(protocol));
    await say(client, 'remember me', 'ctx-f');
    expect((await say(client, 'again', 'ctx-f')).text).toContain('turn 2');
    const forgot = await say(client, 'forget', 'ctx-f');
    expect(forgot.text).toContain("I've forgotten this conversation");
    expect((await say(client, 'who am I?', 'ctx-f')).text).toMatch(/^Hello! This is turn 1\b/);
  });
});

describe('demo agent, A2A v1.0 over HTTP+JSON', () => {
  it('streams the same chunked, remembering answers', async () => {
    const agent = await start('1.0');
    const client = await connect(agent, 'HTTP+JSON');
    const first = await say(client, 'hello over REST', 'ctx-rest');
    expect(first.kinds).toEqual(['task:SUBMITTED', 'status:WORKING', 'artifact', 'status:COMPLETED']);
    expect(first.chunks.map((c) => c.append)).toEqual(first.chunks.map((_, i) => i > 0));
    expect(first.text).toContain('turn 1');
    const viaJsonRpc = await say(await connect(agent), 'and now JSON-RPC', 'ctx-rest');
    expect(viaJsonRpc.text).toContain('turn 2 of our conversation; earlier you said: “hello over REST”');
  });
});

describe('demo agent memory file', () => {
  it('a corrupt file starts fresh, and the next write replaces it with valid JSON', async () => {
    await mkdir(dirname(memoryFile), { recursive: true });
    await writeFile(memoryFile, '{"version":1,"conversations":{"ctx-a":{"turns":');
    const client = await connect(await start('1.0'));
    expect((await say(client, 'hello', 'ctx-a')).text).toContain('turn 1');
    await agents.pop()?.close();
    expect((await stored())['ctx-a']).toMatchObject({ turns: 1, messages: ['hello'] });
  });

  it('malformed entries are dropped, valid ones kept', async () => {
    const good = { turns: 4, messages: ['a', 'b'], updatedAt: new Date().toISOString() };
    await mkdir(dirname(memoryFile), { recursive: true });
    await writeFile(memoryFile, JSON.stringify({ version: 1, conversations: { good, bad: { turns: 'x' }, worse: null } }));
    const client = await connect(await start('0.3'));
    expect((await say(client, 'c', 'good')).text).toContain('turn 5');
    expect((await say(client, 'hi', 'bad')).text).toContain('turn 1');
  });

  it(`keeps the ${MAX_CONVERSATIONS} most recent conversations and ${MAX_MESSAGES} messages each`, async () => {
    const memory = await Memory.open(memoryFile);
    for (let i = 0; i < MAX_MESSAGES + 5; i++) memory.remember('long', `m${i}`);
    for (let i = 0; i < MAX_CONVERSATIONS + 5; i++) memory.remember(`c${i}`, 'hi');
    await memory.flush();
    const conversations = await stored();
    expect(Object.keys(conversations)).toHaveLength(MAX_CONVERSATIONS);
    expect(conversations['c0']).toBeUndefined();
    expect(conversations[`c${MAX_CONVERSATIONS + 4}`]).toBeDefined();
    const reopened = await Memory.open(memoryFile);
    expect(reopened.remember('c5', 'again').turn).toBe(2);
    await reopened.flush();
    const again = await Memory.open(memoryFile);
    expect(again.remember('long', 'x')).toEqual({ turn: 1, earlier: [] }); // evicted as the least recent
    const fresh = await Memory.open(join(dir, 'other.json'));
    for (let i = 0; i < MAX_MESSAGES + 5; i++) fresh.remember('long', `m${i}`);
    const kept = Array.from({ length: MAX_MESSAGES }, (_, i) => `m${i + 5}`);
    expect(fresh.remember('long', 'last')).toEqual({ turn: MAX_MESSAGES + 6, earlier: kept });
    await Promise.all([again.flush(), fresh.flush()]);
  });

  it('flush() waits for the write, and forget() is written too', async () => {
    const memory = await Memory.open(memoryFile);
    memory.remember('ctx-x', 'hello');
    await memory.flush();
    expect(Object.keys(await stored())).toEqual(['ctx-x']);
    memory.forget('ctx-x');
    await memory.flush();
    expect(await stored()).toEqual({});
  });
});

describe('demo agent over HTTP', () => {
  it('answers a CORS preflight with 204 and marks responses readable from any origin', async () => {
    const agent = await start('1.0');
    const preflight = await fetch(new URL('a2a/jsonrpc', agent.url), {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://127.0.0.1:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,a2a-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/A2A-Version/);
    const card = await fetch(new URL('.well-known/agent-card.json', agent.url), {
      headers: { Origin: 'http://127.0.0.1:5173', 'A2A-Version': '1.0' },
    });
    expect(card.headers.get('access-control-allow-origin')).toBe('*');
    expect(await card.json()).toMatchObject({
      name: 'a4h demo agent',
      capabilities: { streaming: true },
      defaultOutputModes: ['text/plain'],
    });
  });

  it('close() stops a running turn and leaves no socket, server or timer behind', async () => {
    const before = await settledHandles((counts) => counts.size === 0);
    const agent = await start('1.0');
    const client = await connect(agent);
    const stream = client.sendMessageStream(request('slow', 'ctx-open'));
    const first = await stream.next();
    const second = await stream.next();
    expect([first.value?.payload?.$case, second.value?.payload?.$case]).toEqual(['task', 'statusUpdate']);
    expect(handles(ALIVE).get('TCPServerWrap') ?? 0).toBeGreaterThan(before.get('TCPServerWrap') ?? 0);
    await agent.close();
    await expect(stream.next()).rejects.toThrow(); // the open stream was cut, not left hanging
    await expect(fetch(agent.url)).rejects.toThrow();
    const noMoreThanBefore = (counts: Map<string, number>) => [...counts].every(([type, n]) => n <= (before.get(type) ?? 0));
    expect(noMoreThanBefore(await settledHandles(noMoreThanBefore))).toBe(true);
    expect((await stored())['ctx-open']).toMatchObject({ turns: 1 });
  });
});

describe('serve flags', () => {
  it('defaults, --v03, --memory, and a refusal of non-loopback hosts and bad ports', () => {
    expect(parseServeArgs([])).toEqual({ help: false, options: { port: 41241, host: '127.0.0.1', protocol: '1.0' } });
    expect(parseServeArgs(['--port', '0', '--v03', '--memory', 'memory/m.json', '--host', '::1'])).toEqual({
      help: false,
      options: { port: 0, host: '::1', protocol: '0.3', memoryFile: 'memory/m.json' },
    });
    expect(parseServeArgs(['--grpc', '--v03'])).toEqual({
      help: false,
      options: { port: 41241, host: '127.0.0.1', protocol: '0.3', grpc: true },
    });
    expect(parseServeArgs(['--help'])).toEqual({ help: true });
    expect(() => parseServeArgs(['--host', '0.0.0.0'])).toThrow(/loopback/);
    expect(() => parseServeArgs(['--port', 'abc'])).toThrow(/--port/);
    expect(() => parseServeArgs(['--port', '70000'])).toThrow(/--port/);
    expect(() => parseServeArgs(['--bogus'])).toThrow();
    const hosts = ['127.0.0.2', 'localhost', '192.168.1.1', '127.example.com'];
    expect(hosts.map(isLoopback)).toEqual([true, true, false, false]);
  });
});

describe('demo agent intents', () => {
  it('reads the first word: slow and attach anywhere in case, forget only alone', () => {
    const texts = [
      'hello',
      'slow please',
      'Attach a file',
      '  ATTACH',
      'attachment please',
      'forget',
      'forget it',
      'Echo this',
      'Ask me',
      'asking',
    ];
    expect(texts.map(intentOf)).toEqual(['chat', 'slow', 'attach', 'attach', 'chat', 'forget', 'chat', 'echo', 'ask', 'chat']);
  });

  it('logs an attach turn as "(attach)"', async () => {
    const lines: string[] = [];
    const agent = await startDemoAgent({ memoryFile, chunkDelayMs: 1, log: (line) => lines.push(line) });
    agents.push(agent);
    await say(await connect(agent), 'attach', 'ctx-log-attach');
    expect(lines).toEqual(['ctx-log- turn 1 (attach)']);
  });
});
