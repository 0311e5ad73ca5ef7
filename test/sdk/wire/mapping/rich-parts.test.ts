import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeFetch, type NodeFetch } from '../../../../src/node/fetch.js';
import type { Attachment, TurnEvent } from '../../../../src/port/events.js';
import { createSdkPorts } from '../../../../src/sdk/ports.js';
import { runTurn } from '../../../../src/turn/turn.js';
import { sendJson, sseFrame, startRawAgent, type RawAgent } from '../../raw-agent.js';

/**
 * Every part kind on both wires, as a raw agent writes them: v1.0 `raw` / `url` / `data` parts and
 * v0.3 `kind: "file"` with `bytes` or `uri` and `kind: "data"`, over a stream (chunks, then an ADK
 * closing replace, then a task snapshot repeating it all) and a blocking send. Each part is one
 * attachment, its bytes decoded.
 */
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 254, 255]);
const B64 = Buffer.from(PNG).toString('base64');
const URI = 'https://files.example/report.pdf';
const DATA = { rows: [['Paris', 21]] };

type Generation = '1.0' | '0.3';

function parts(generation: Generation, which: 'text' | 'file' | 'link' | 'data' | 'call'): unknown {
  const v1 = generation === '1.0';
  switch (which) {
    case 'text':
      return v1 ? { text: 'Here.' } : { kind: 'text', text: 'Here.' };
    case 'file':
      return v1
        ? { raw: B64, mediaType: 'image/png', filename: 'chart.png' }
        : { kind: 'file', file: { bytes: B64, mimeType: 'image/png', name: 'chart.png' } };
    case 'link':
      return v1
        ? { url: URI, mediaType: 'application/pdf', filename: 'report.pdf' }
        : { kind: 'file', file: { uri: URI, mimeType: 'application/pdf', name: 'report.pdf' } };
    case 'data':
      return v1 ? { data: DATA, mediaType: 'application/json' } : { kind: 'data', data: DATA };
    case 'call':
      return v1
        ? { data: { id: 'fc1', name: 'lookup' }, metadata: { adk_type: 'function_call' } }
        : { kind: 'data', data: { id: 'fc1', name: 'lookup' }, metadata: { adk_type: 'function_call' } };
  }
}

const ALL = ['text', 'file', 'link', 'data'] as const;

function task(generation: Generation, state: 'working' | 'completed', withParts: boolean): unknown {
  const artifacts = withParts ? [{ artifactId: 'A', parts: ALL.map((p) => parts(generation, p)) }] : [];
  return generation === '1.0'
    ? { id: 'T', contextId: 'C', status: { state: `TASK_STATE_${state.toUpperCase()}` }, artifacts }
    : { kind: 'task', id: 'T', contextId: 'C', status: { state }, artifacts };
}

function streamResults(generation: Generation): unknown[] {
  const v1 = generation === '1.0';
  const chunk = (list: readonly string[], append: boolean) => {
    const artifact = { artifactId: 'A', parts: list.map((p) => parts(generation, p as 'text')) };
    return v1
      ? { artifactUpdate: { taskId: 'T', contextId: 'C', append, artifact } }
      : { kind: 'artifact-update', taskId: 'T', contextId: 'C', append, artifact };
  };
  const call = v1
    ? {
        statusUpdate: {
          taskId: 'T',
          contextId: 'C',
          status: { state: 'TASK_STATE_WORKING', message: { messageId: 'm1', role: 'ROLE_AGENT', parts: [parts(generation, 'call')] } },
        },
      }
    : {
        kind: 'status-update',
        taskId: 'T',
        contextId: 'C',
        final: false,
        status: { state: 'working', message: { kind: 'message', messageId: 'm1', role: 'agent', parts: [parts(generation, 'call')] } },
      };
  const done = v1
    ? { statusUpdate: { taskId: 'T', contextId: 'C', status: { state: 'TASK_STATE_COMPLETED' } } }
    : { kind: 'status-update', taskId: 'T', contextId: 'C', final: true, status: { state: 'completed' } };
  return [
    v1 ? { task: task(generation, 'working', false) } : task(generation, 'working', false),
    call,
    chunk(['text', 'file'], false),
    chunk(['link', 'data'], true),
    chunk(ALL, false), // ADK's closing replace: every part again
    v1 ? { task: task(generation, 'working', true) } : task(generation, 'working', true), // a snapshot repeating it all
    done,
  ];
}

let agent: RawAgent;
let http: NodeFetch;
beforeAll(async () => {
  http = createNodeFetch();
  agent = await startRawAgent((req, res, { base, rpc }) => {
    const [, generation, mode] = /^\/(1\.0|0\.3)\/(stream|send)\//.exec(req.url ?? '') ?? [];
    const url = `${base}${generation}/${mode}/rpc`;
    if (rpc === undefined) {
      const common = {
        name: `rich ${generation} ${mode}`,
        description: 'answers with every part kind',
        version: '1',
        capabilities: { streaming: mode === 'stream' },
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain', 'image/png'],
        skills: [],
      };
      return sendJson(
        res,
        generation === '1.0'
          ? { ...common, supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] }
          : { ...common, url, preferredTransport: 'JSONRPC', protocolVersion: '0.3.0' },
      );
    }
    if (mode === 'send')
      return sendJson(res, {
        jsonrpc: '2.0',
        id: rpc.id,
        result: generation === '1.0' ? { task: task('1.0', 'completed', true) } : task('0.3', 'completed', true),
      });
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(
      streamResults(generation as Generation)
        .map((result) => sseFrame(rpc.id, result))
        .join(''),
    );
  });
});
afterAll(async () => {
  await agent.close();
  await http.close();
});

const EXPECTED: Attachment[] = [
  { kind: 'file', name: 'chart.png', mediaType: 'image/png', size: PNG.length, bytes: expect.any(Uint8Array) as Uint8Array },
  { kind: 'file', name: 'report.pdf', mediaType: 'application/pdf', uri: URI },
  { kind: 'data', data: DATA },
];

describe.each([
  ['1.0', 'stream', 'a4h'],
  ['1.0', 'stream', 'sdk'],
  ['1.0', 'send', 'a4h'],
  ['0.3', 'stream', 'a4h'],
  ['0.3', 'stream', 'sdk'],
  ['0.3', 'send', 'a4h'],
] as const)('v%s %s (%s reader)', (generation, mode, reader) => {
  it('each part once, bytes decoded, tool calls as activity, the text the reply', async () => {
    const events: TurnEvent[] = await lastValueFrom(
      runTurn(createSdkPorts({ fetch: http.fetch, reader })(`${agent.url}${generation}/${mode}/`), { text: 'report' }).pipe(toArray()),
    );
    const end = events.at(-1) as Extract<TurnEvent, { type: 'end' }>;
    expect(end).toMatchObject({ type: 'end', outcome: 'completed', text: 'Here.' });
    const expected = EXPECTED.map((a) => (a.kind === 'data' && generation === '1.0' ? { ...a, mediaType: 'application/json' } : a));
    expect(events.filter((e) => e.type === 'attachment').map((e) => e.type === 'attachment' && e.attachment)).toEqual(expected);
    expect(end.attachments).toEqual(expected);
    const file = end.attachments![0]!;
    expect(file.kind === 'file' && [...file.bytes!]).toEqual([...PNG]);
    if (mode === 'stream')
      expect(events.filter((e) => e.type === 'activity')).toEqual([
        { type: 'activity', kind: 'function_call', name: 'lookup', data: { id: 'fc1', name: 'lookup' } },
      ]);
  });
});
