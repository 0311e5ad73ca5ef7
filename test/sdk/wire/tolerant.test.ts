import { filter, firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createNodeFetch, type NodeFetch } from '../../../src/node/fetch.js';
import type { A2AError } from '../../../src/errors.js';
import type { TurnEvent } from '../../../src/port/events.js';
import { createSdkPorts } from '../../../src/sdk/ports.js';
import { runTurn } from '../../../src/turn/turn.js';
import { sendJson, sseFrame, startRawAgent } from '../raw-agent.js';
import { useAgentRig } from '../../agent-rig.js';

/**
 * Bytes real servers send that carry a perfectly clear event, and that the SDK's strict reader
 * refuses: the client's own reader reads them. One raw server on 127.0.0.1 serves a v1.0 and a v0.3
 * agent; each quirk is applied to the same answer, "Hello world" in two chunks.
 */
type Quirk = 'none' | 'record-separator' | 'cr' | 'media-type-case' | 'media-type-params' | 'string-id' | 'no-kind' | 'no-task-id';
type Generation = '1.0' | '0.3';

const REPLY = 'Hello world';

function results(generation: Generation, quirk: Quirk): unknown[] {
  if (generation === '1.0') {
    const status = (state: string) => ({
      statusUpdate: { taskId: quirk === 'no-task-id' ? undefined : 'T', contextId: 'C', status: { state } },
    });
    const chunk = (text: string, append: boolean) => ({
      artifactUpdate: { taskId: 'T', contextId: 'C', append, artifact: { artifactId: 'A', parts: [{ text }] } },
    });
    return [
      { task: { id: 'T', contextId: 'C', status: { state: 'TASK_STATE_WORKING' } } },
      chunk('Hello', false),
      chunk(' world', true),
      status('TASK_STATE_COMPLETED'),
    ];
  }
  const kind = (k: string) => (quirk === 'no-kind' ? {} : { kind: k });
  const taskId = quirk === 'no-task-id' ? {} : { taskId: 'T' };
  const chunk = (text: string, append: boolean) => ({
    ...kind('artifact-update'),
    taskId: 'T',
    contextId: 'C',
    append,
    artifact: { artifactId: 'A', parts: [{ ...kind('text'), text }] },
  });
  return [
    { ...kind('task'), id: 'T', contextId: 'C', status: { state: 'working' } },
    chunk('Hello', false),
    chunk(' world', true),
    { ...kind('status-update'), ...taskId, contextId: 'C', final: true, status: { state: 'completed' } },
  ];
}

function frames(generation: Generation, quirk: Quirk, id: number): string {
  const echoed = quirk === 'string-id' ? String(id) : id;
  const eol = quirk === 'cr' ? '\r' : '\n';
  const rs = quirk === 'record-separator' ? '\u001e' : '';
  return results(generation, quirk)
    .map((result) => `data: ${rs}${JSON.stringify({ jsonrpc: '2.0', id: echoed, result })}${eol}${eol}`)
    .join('');
}

const CONTENT_TYPES: Partial<Record<Quirk, string>> = {
  'media-type-case': 'TEXT/EVENT-STREAM',
  'media-type-params': 'text/event-stream;charset=UTF-8',
};

async function quirkyAgent() {
  const cancels: string[] = [];
  const agent = await startRawAgent((req, res, { base: root, rpc }) => {
    const [, generation, quirk] = /^\/(1\.0|0\.3)\/([a-z-]+)\//.exec(req.url ?? '') ?? [];
    const base = `${root}${generation}/${quirk}/`;
    if (rpc === undefined) {
      const common = {
        name: `quirky ${generation} ${quirk}`,
        description: 'reads tolerantly',
        version: '1',
        capabilities: { streaming: true },
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [],
      };
      return sendJson(
        res,
        generation === '1.0'
          ? { ...common, supportedInterfaces: [{ url: `${base}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] }
          : { ...common, url: `${base}rpc`, preferredTransport: 'JSONRPC', protocolVersion: '0.3.0' },
      );
    }
    if (/cancel/i.test(rpc.method)) {
      cancels.push(`${generation}/${quirk}`);
      return sendJson(res, { jsonrpc: '2.0', id: rpc.id, error: { code: -32002, message: 'not cancelable' } });
    }
    res.writeHead(200, { 'content-type': CONTENT_TYPES[quirk as Quirk] ?? 'text/event-stream' });
    res.end(frames(generation as Generation, quirk as Quirk, rpc.id));
  });
  return { ...agent, url: (generation: Generation, quirk: Quirk) => `${agent.url}${generation}/${quirk}/`, cancels };
}

const folded = (events: TurnEvent[]) =>
  events.reduce((reply, e) => (e.type === 'text' ? (e.replace ? e.text : reply + e.text) : reply), '');

/** What each quirk does to the SDK's own reader (the difference the README names). */
const SDK_READER: Record<Quirk, 'reads' | 'fails'> = {
  none: 'reads',
  'record-separator': 'fails',
  cr: 'fails',
  'media-type-case': 'fails',
  'media-type-params': 'reads',
  'string-id': 'reads', // the SDK's reader is handed the frames with the request's id (fetch/stream-frames.ts)
  'no-kind': 'fails',
  'no-task-id': 'reads', // our mapping takes an update without a task id as the turn's, on either reader
};

describe('reading tolerantly: bytes that carry a clear event', () => {
  let agent: Awaited<ReturnType<typeof quirkyAgent>>;
  let http: NodeFetch;
  useAgentRig(quirkyAgent, (a, h) => ([agent, http] = [a, h]));

  const turn = (reader: 'a4h' | 'sdk', generation: Generation, quirk: Quirk) =>
    lastValueFrom(runTurn(createSdkPorts({ fetch: http.fetch, reader })(agent.url(generation, quirk)), { text: 'hi' }).pipe(toArray()));

  for (const generation of ['1.0', '0.3'] as const) {
    for (const quirk of Object.keys(SDK_READER) as Quirk[]) {
      if (generation === '1.0' && quirk === 'no-kind') continue; // v1.0 results have no kind to leave out
      it(`v${generation}, ${quirk}: our reader gives the whole reply once, and nothing is cancelled`, async () => {
        const events = await turn('a4h', generation, quirk);
        expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: REPLY, taskId: 'T' });
        expect(folded(events)).toBe(REPLY);
        expect(agent.cancels).not.toContain(`${generation}/${quirk}`);
      });

      it(`v${generation}, ${quirk}: the SDK's reader ${SDK_READER[quirk]}`, async () => {
        const outcome = await turn('sdk', generation, quirk).then(
          (events) => (events.at(-1)?.type === 'end' && folded(events) === REPLY ? 'reads' : 'fails'),
          () => 'fails',
        );
        expect(outcome).toBe(SDK_READER[quirk]);
      });
    }
  }

  it('a stream of mixed JSON-RPC ids stays an error: a frame whose id differs from the frames before it', async () => {
    const working = { task: { id: 'T', status: { state: 'TASK_STATE_WORKING' } } };
    const error = await readerError(http, sseFrame('someone-else', working) + sseFrame('another', working));
    expect(error).toMatchObject({
      kind: 'protocol',
      message: expect.stringContaining('a frame of another JSON-RPC call (id "another", not '),
    });
  });

  it('a bare CloudEvent (no JSON-RPC at all) is said to be one, not a frame of another JSON-RPC call', async () => {
    const event = { specversion: '1.0', id: 'evt-1', source: '/agent', type: 'task.status', data: { state: 'working' } };
    const error = await readerError(http, `data: ${JSON.stringify(event)}\n\n`);
    expect(error).toMatchObject({ kind: 'protocol', message: expect.stringContaining('not a JSON-RPC response but a CloudEvent') });
    expect(error.message).not.toContain('another JSON-RPC call');
  });
});

/** The error our reader gives for a stream whose only bytes are `body`. */
async function readerError(http: NodeFetch, body: string): Promise<A2AError> {
  const { readStream } = await import('../../../src/sdk/wire/reader/json-rpc.js');
  const server = await startRawAgent((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(body);
  });
  try {
    const endpoint = `${server.url}rpc`;
    const read$ = readStream(
      { fetch: http.fetch, maxEventChars: 2 ** 20 },
      { endpoint, method: 'SendStreamingMessage', params: {}, version: '1.0' },
      { operation: 'stream', agent: endpoint },
      { map: (r) => r },
    );
    return await lastValueFrom(read$).then(
      () => expect.unreachable('the stream was read without an error') as never,
      (error: unknown) => error as A2AError,
    );
  } finally {
    await server.close();
  }
}

describe('liveness: SSE comments while the agent thinks', () => {
  it("keep our reader's idle clock from running out: no reconnect; the SDK's reader (which drops comments) reconnects", async () => {
    const methods: string[] = [];
    const timers = new Set<NodeJS.Timeout>();
    const server = await startRawAgent((_req, res, { base, rpc }) => {
      if (rpc === undefined) {
        return sendJson(res, {
          name: 'pinging',
          supportedInterfaces: [{ url: `${base}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
          capabilities: { streaming: true },
        });
      }
      methods.push(rpc.method);
      if (rpc.method === 'GetTask') {
        const task = {
          id: 'T',
          contextId: 'C',
          status: { state: 'TASK_STATE_COMPLETED' },
          artifacts: [{ artifactId: 'A', parts: [{ text: 'Thought it through.' }] }],
        };
        return sendJson(res, { jsonrpc: '2.0', id: rpc.id, result: task });
      }
      const frame = (result: unknown) => sseFrame(rpc.id, result);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(frame({ task: { id: 'T', contextId: 'C', status: { state: 'TASK_STATE_WORKING' } } }));
      // Thinking for 2.4 s, a comment every 100 ms, then the answer.
      let pings = 0;
      const ping = setInterval(() => {
        if (res.destroyed) return clearInterval(ping);
        if (++pings < 24) return void res.write(': ping\n\n');
        clearInterval(ping);
        res.write(
          frame({
            artifactUpdate: { taskId: 'T', contextId: 'C', artifact: { artifactId: 'A', parts: [{ text: 'Thought it through.' }] } },
          }),
        );
        res.end(frame({ statusUpdate: { taskId: 'T', contextId: 'C', status: { state: 'TASK_STATE_COMPLETED' } } }));
      }, 100);
      timers.add(ping);
    });
    const http = createNodeFetch();
    const url = server.url;
    const policy = { policy: { idleTimeoutMs: 1_500, firstEventTimeoutMs: 1_500, reconnect: { initialDelayMs: 10, maxDelayMs: 20 } } };
    try {
      const ours = await lastValueFrom(runTurn(createSdkPorts({ fetch: http.fetch })(url), { text: 'hi' }, policy).pipe(toArray()));
      expect(ours.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: 'Thought it through.' });
      expect(ours.filter((e) => e.type === 'reconnecting')).toEqual([]);
      expect(methods).toEqual(['SendStreamingMessage']);
      // The SDK's reader never sees the comments: the think is an idle gap, and the turn reconnects.
      const sdkTurn$ = runTurn(createSdkPorts({ fetch: http.fetch, reader: 'sdk' })(url), { text: 'hi' }, policy);
      await expect(firstValueFrom(sdkTurn$.pipe(filter((e) => e.type === 'reconnecting')))).resolves.toMatchObject({ attempt: 1 });
    } finally {
      for (const timer of timers) clearInterval(timer);
      await http.close();
      await server.close();
    }
  });
});

describe('reading replies tolerantly: a blocking send', () => {
  for (const generation of ['1.0', '0.3'] as const) {
    it(`v${generation}: an id echoed as a string and ${generation === '0.3' ? 'a result without kind' : 'the v1.0 result'} → the whole reply; a different id stays an error`, async () => {
      let echo: (id: number) => unknown = String;
      const server = await startRawAgent((_req, res, { base, rpc }) => {
        if (rpc === undefined) {
          const common = { name: 'blocking', description: 'answers whole', version: '1', capabilities: { streaming: false }, skills: [] };
          return sendJson(
            res,
            generation === '1.0'
              ? { ...common, supportedInterfaces: [{ url: `${base}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] }
              : { ...common, url: `${base}rpc`, preferredTransport: 'JSONRPC', protocolVersion: '0.3.0' },
          );
        }
        const parts = [{ text: REPLY }]; // on the v0.3 wire, a v0.2-era part: no kind
        const result =
          generation === '1.0'
            ? { task: { id: 'T', contextId: 'C', status: { state: 'TASK_STATE_COMPLETED' }, artifacts: [{ artifactId: 'A', parts }] } }
            : { id: 'T', contextId: 'C', status: { state: 'completed' }, artifacts: [{ artifactId: 'A', parts }] };
        sendJson(res, { jsonrpc: '2.0', id: echo(rpc.id), result }, { 'content-type': 'application/json; charset=utf-8' });
      });
      const http = createNodeFetch();
      const url = server.url;
      try {
        const events = await lastValueFrom(runTurn(createSdkPorts({ fetch: http.fetch })(url), { text: 'hi' }).pipe(toArray()));
        expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: REPLY });
        echo = (id) => `not-${id}`;
        await expect(lastValueFrom(runTurn(createSdkPorts({ fetch: http.fetch })(url), { text: 'hi' }))).rejects.toMatchObject({
          kind: 'protocol',
        });
      } finally {
        await http.close();
        await server.close();
      }
    });
  }
});

describe('a refused stream read by our reader', () => {
  it('HTTP 400 with a JSON-RPC error: a protocol error with its code and status, on either reader (the blocking send it falls back to is refused alike)', async () => {
    const server = await startRawAgent((_req, res, { base, rpc }) => {
      if (rpc === undefined) {
        return sendJson(res, {
          name: 'refusing',
          supportedInterfaces: [{ url: `${base}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
          capabilities: { streaming: true },
        });
      }
      sendJson(res, { jsonrpc: '2.0', id: rpc.id, error: { code: -32602, message: 'bad params' } }, {}, 400);
    });
    const http = createNodeFetch();
    try {
      for (const reader of ['a4h', 'sdk'] as const) {
        const turn$ = runTurn(createSdkPorts({ fetch: http.fetch, reader })(server.url), { text: 'hi' });
        await expect(lastValueFrom(turn$)).rejects.toMatchObject({ kind: 'protocol', code: -32602, status: 400 });
      }
    } finally {
      await http.close();
      await server.close();
    }
  });
});
