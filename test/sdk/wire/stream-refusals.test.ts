import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeFetch, type NodeFetch } from '../../../src/node/fetch.js';
import type { TurnEvent } from '../../../src/port/events.js';
import { createSdkPorts } from '../../../src/sdk/ports.js';
import { runTurn } from '../../../src/turn/turn.js';
import { FAST, folded } from '../harness.js';
import { leastCard, sendJson, startRawAgent, type RawAgent } from '../raw-agent.js';

const REPLY = 'Sent, not streamed.';
const STREAMS = new Set(['SendStreamingMessage', 'message/stream']);
const SENDS = new Set(['SendMessage', 'message/send']);

/** How the refusal of a stream call is answered: an SSE frame or a JSON body, with or without its Content-Type. */
type Shape = 'sse' | 'sse, no Content-Type' | 'sse as application/json' | 'json' | 'json, no Content-Type';

interface Script {
  shape: Shape;
  /** The code of the stream's refusal. */
  code: number;
  /** The code of the blocking send's refusal, when it is refused too. */
  sendCode?: number;
}

/** What the agent received, and what it took: the messages it ran a task for. */
interface AgentRecord {
  methods: string[];
  tasks: number;
}

function refuse(res: Parameters<Parameters<typeof startRawAgent>[0]>[1], shape: Shape, id: unknown, code: number): void {
  const envelope = { jsonrpc: '2.0', id, error: { code, message: `refused (${code})` } };
  const frame = `data: ${JSON.stringify(envelope)}\n\n`;
  if (shape === 'sse') return void res.writeHead(200, { 'content-type': 'text/event-stream' }).end(frame);
  if (shape === 'sse as application/json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(frame);
  if (shape === 'json') return sendJson(res, envelope);
  res.writeHead(200);
  res.write(shape === 'json, no Content-Type' ? JSON.stringify(envelope) : frame);
  res.end();
}

/**
 * An agent that refuses every stream call (either generation's) before any event, as the script
 * says, and runs a task for each blocking send it takes (unless told to refuse those too).
 */
async function refusingAgent(version: '1.0' | '0.3', script: () => Script, record: AgentRecord): Promise<RawAgent> {
  return startRawAgent((_req, res, { base, rpc }) => {
    if (rpc === undefined) {
      return sendJson(res, leastCard(base, 'streams nothing', version));
    }
    const { shape, code, sendCode } = script();
    record.methods.push(rpc.method);
    if (STREAMS.has(rpc.method)) return refuse(res, shape, rpc.id, code);
    if (SENDS.has(rpc.method) && sendCode !== undefined)
      return sendJson(res, { jsonrpc: '2.0', id: rpc.id, error: { code: sendCode, message: 'no' } });
    if (rpc.method === 'SendMessage' || rpc.method === 'message/send') {
      record.tasks++;
      const artifacts = (kind: boolean) => [{ artifactId: 'A', parts: [kind ? { kind: 'text', text: REPLY } : { text: REPLY }] }];
      const result =
        rpc.method === 'message/send'
          ? { kind: 'task', id: `T${record.tasks}`, contextId: 'C', status: { state: 'completed' }, artifacts: artifacts(true) }
          : { task: { id: `T${record.tasks}`, contextId: 'C', status: { state: 'TASK_STATE_COMPLETED' }, artifacts: artifacts(false) } };
      return sendJson(res, { jsonrpc: '2.0', id: rpc.id, result });
    }
    sendJson(res, { jsonrpc: '2.0', id: rpc.id, error: { code: -32601, message: 'Method not found' } });
  });
}

async function turnOf(ports: ReturnType<typeof createSdkPorts>, agent: RawAgent): Promise<{ events: TurnEvent[]; error?: unknown }> {
  const events: TurnEvent[] = [];
  return new Promise((resolve) => {
    runTurn(ports(agent.url), { text: 'hi', contextId: 'C' }, FAST).subscribe({
      next: (event) => events.push(event),
      error: (error: unknown) => resolve({ events, error }),
      complete: () => resolve({ events }),
    });
  });
}

/**
 * A stream call the agent refuses, before any event, by a JSON-RPC error that refuses the method or
 * its parameters, in every shape agents send one: the blocking send, once, and the whole reply; the
 * agent's own record shows one task. Both generations, both readers.
 */
for (const version of ['1.0', '0.3'] as const) {
  for (const reader of ['a4h', 'sdk'] as const) {
    describe(`v${version} JSON-RPC, ${reader === 'sdk' ? "the SDK's" : 'our'} reader: a stream refused before any event`, () => {
      let http: NodeFetch;
      let agent: RawAgent;
      let script: Script = { shape: 'sse', code: -32602 };
      const record: AgentRecord = { methods: [], tasks: 0 };
      beforeAll(async () => {
        http = createNodeFetch();
        agent = await refusingAgent(version, () => script, record);
      });
      afterAll(async () => {
        await agent.close();
        await http.close();
      });
      const turn = async (next: Script) => {
        script = next;
        record.methods.length = 0;
        record.tasks = 0;
        return turnOf(createSdkPorts({ fetch: http.fetch, reader }), agent);
      };

      const cells: [Shape, number][] = [
        ['sse', -32602],
        ['sse, no Content-Type', -32602],
        ['sse as application/json', -32602],
        ['json', -32602],
        ['json, no Content-Type', -32602],
        ['sse, no Content-Type', -32601],
        ['sse, no Content-Type', -32004],
      ];
      for (const [shape, code] of cells) {
        it(`${code} as ${shape}: one fallback, one blocking send, one task, the whole reply once`, async () => {
          const { events, error } = await turn({ shape, code });
          expect(error).toBeUndefined();
          expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: REPLY });
          expect(folded(events)).toBe(REPLY);
          expect(events.filter((e) => e.type === 'fallback')).toMatchObject([{ from: 'stream', to: 'send', cause: { code } }]);
          expect(record.tasks).toBe(1);
          expect(record.methods.filter((m) => SENDS.has(m))).toHaveLength(1);
          // -32601 is first read as the other generation's name: each generation's stream is tried once.
          expect(record.methods.filter((m) => STREAMS.has(m))).toHaveLength(code === -32601 ? 2 : 1);
        });
      }

      it('-32602 to the blocking send too: that refusal is the error, no third call', async () => {
        const { events, error } = await turn({ shape: 'sse, no Content-Type', code: -32602, sendCode: -32602 });
        expect(error).toMatchObject({ kind: 'protocol', code: -32602, operation: 'send' });
        expect(events.filter((e) => e.type === 'fallback')).toHaveLength(1);
        expect(record.methods).toHaveLength(2);
        expect(record.tasks).toBe(0);
      });

      it('-32600 (the request object refused) is the error: no blocking send', async () => {
        const { error } = await turn({ shape: 'sse, no Content-Type', code: -32600 });
        expect(error).toMatchObject({ kind: 'protocol', code: -32600, operation: 'stream' });
        expect(record.methods).toHaveLength(1);
      });
    });
  }
}
