import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createA2A } from '../../../src/client/create-a2a.js';
import type { TurnEvent } from '../../../src/port/events.js';
import { createNodeFetch, type NodeFetch } from '../../../src/node/fetch.js';
import { createSdkPorts } from '../../../src/sdk/ports.js';
import { leastCard, sendJson, sseFrame, startRawAgent, type RawAgent, type RawRequest } from '../raw-agent.js';

const SECRET = 'a test secret of thirty-two bytes';

/** What the agent saw of each streaming send: the contextId it carried (null for none). */
interface Seen {
  contextIds: (string | null)[];
  /** Every JSON-RPC method received (a CancelTask would show here). */
  methods: string[];
}

/**
 * An agent that accepts only contextIds it issued (v1.0 §3.4.1 lets a server do that): a message
 * with any other is refused with -32602 naming it, as a JSON answer or as an error event inside the
 * stream; a message without one starts a conversation under an id of the agent's.
 */
async function issuingAgent(refusal: 'json' | 'sse' | 'always', seen: Seen, version: '1.0' | '0.3' = '1.0'): Promise<RawAgent> {
  const issued = new Set<string>();
  let next = 1;
  return startRawAgent((_req, res, { base, rpc }) => {
    if (rpc === undefined) {
      return sendJson(res, leastCard(base, 'issues its own contexts', version));
    }
    seen.methods.push(rpc.method);
    if (rpc.method !== 'SendStreamingMessage' && rpc.method !== 'message/stream') {
      return sendJson(res, { jsonrpc: '2.0', id: rpc.id, error: { code: -32601, message: 'Method not found' } });
    }
    const message = (rpc.params as { message?: { contextId?: string } } | undefined)?.message;
    const sent = message?.contextId || undefined;
    seen.contextIds.push(sent ?? null);
    if (refusal === 'always' || (sent !== undefined && !issued.has(sent))) {
      const error = { code: -32602, message: `Invalid params: unknown contextId '${sent ?? ''}'` };
      if (refusal === 'sse') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: rpc.id, error })}\n\n`);
      }
      return sendJson(res, { jsonrpc: '2.0', id: rpc.id, error });
    }
    const contextId = sent ?? `agent-ctx-${next++}`;
    issued.add(contextId);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(answer(rpc, contextId, version));
  });
}

function answer(rpc: RawRequest, contextId: string, version: '1.0' | '0.3'): string {
  const text = `In ${contextId}.`;
  if (version === '0.3') {
    const artifacts = [{ artifactId: 'A', parts: [{ kind: 'text', text }] }];
    return sseFrame(rpc.id, { kind: 'task', id: `task-${contextId}`, contextId, status: { state: 'completed' }, artifacts });
  }
  const task = { id: `task-${contextId}`, contextId, status: { state: 'TASK_STATE_COMPLETED' } };
  return sseFrame(rpc.id, { task: { ...task, artifacts: [{ artifactId: 'A', parts: [{ text }] }] } });
}

describe('an agent that refuses contextIds it did not issue', () => {
  let http: NodeFetch;
  beforeAll(() => {
    http = createNodeFetch();
  });
  afterAll(() => http.close());

  for (const [refusal, reader, version] of [
    ['json', 'a4h', '1.0'],
    ['sse', 'a4h', '1.0'],
    ['json', 'sdk', '1.0'],
    ['sse', 'sdk', '1.0'],
    ['json', 'a4h', '0.3'],
    ['sse', 'a4h', '0.3'],
    ['json', 'sdk', '0.3'],
    ['sse', 'sdk', '0.3'],
  ] as const) {
    it(`v${version}, refused ${refusal === 'json' ? 'as a JSON answer' : 'inside the stream'} (${reader} reader): sent once more without one, the thread adopts the agent's, one warning, nothing cancelled`, async () => {
      const seen: Seen = { contextIds: [], methods: [] };
      const agent = await issuingAgent(refusal, seen, version);
      const warnings: [Record<string, unknown>, string][] = [];
      const logger = {
        debug() {},
        info() {},
        error() {},
        warn: (fields: Record<string, unknown>, message: string) => void warnings.push([fields, message]),
      };
      const a2a = createA2A({ identitySecret: SECRET, logger, ports: createSdkPorts({ fetch: http.fetch, reader }) });
      try {
        const thread = { agent: agent.url, handle: 'bot', thread: `refused-${refusal}-${reader}-${version}` };
        const derived = await a2a.contextId(thread.handle, thread.thread);
        const first = await lastValueFrom(a2a.turn({ ...thread, text: 'hi' }).pipe(toArray()));
        expect(first.map((e) => e.type)).toContain('context-refused');
        expect(first.find((e) => e.type === 'context-refused')).toMatchObject({
          contextId: derived,
          cause: { kind: 'protocol', code: -32602 },
        });
        expect(first.find((e) => e.type === 'context-adopted')).toEqual({ type: 'context-adopted', sent: derived, adopted: 'agent-ctx-1' });
        expect(first.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: 'In agent-ctx-1.', contextId: 'agent-ctx-1' });
        const second = (await lastValueFrom(a2a.turn({ ...thread, text: 'again' }).pipe(toArray()))) as TurnEvent[];
        expect(second.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: 'In agent-ctx-1.' });
        expect(second.filter((e) => e.type === 'context-refused' || e.type === 'context-adopted')).toEqual([]);
        expect(seen.contextIds).toEqual([derived, null, 'agent-ctx-1']);
        expect(seen.methods.filter((m) => /cancel/i.test(m))).toEqual([]);
        expect(warnings).toHaveLength(1);
        expect(warnings[0]![0]).toMatchObject({ agent: agent.url, sent: derived, adopted: 'agent-ctx-1' });
      } finally {
        await a2a.close();
        await agent.close();
      }
    });
  }

  it('refused again without a contextId: the turn fails with that refusal, nothing sent a third time', async () => {
    const seen: Seen = { contextIds: [], methods: [] };
    const agent = await issuingAgent('always', seen);
    const a2a = createA2A({ identitySecret: SECRET, ports: createSdkPorts({ fetch: http.fetch }) });
    try {
      const turn$ = a2a.turn({ agent: agent.url, handle: 'bot', thread: 'refused-always', text: 'hi' });
      await expect(lastValueFrom(turn$)).rejects.toMatchObject({ kind: 'protocol', code: -32602 });
      expect(seen.contextIds).toHaveLength(2);
      expect(seen.contextIds[1]).toBeNull();
    } finally {
      await a2a.close();
      await agent.close();
    }
  });
});
