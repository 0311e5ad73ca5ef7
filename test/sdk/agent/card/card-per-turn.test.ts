import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeFetch } from '../../../../src/node/fetch.js';
import type { TurnEvent } from '../../../../src/port/events.js';
import { createSdkPorts } from '../../../../src/sdk/ports.js';
import { runTurn } from '../../../../src/turn/turn.js';
import { rawCard, sendJson, sseFrame, startRawAgent } from '../../raw-agent.js';

const CARD = '/.well-known/agent-card.json';

/**
 * An A2A v1.0 agent whose card says `Cache-Control: no-cache` and whose stream closes before the task
 * settles, so a turn needs its card for the stream, the resubscribe, a GetTask and (when left) a
 * CancelTask. `cardFails` makes the card endpoint answer 500 from then on.
 */
async function noCacheAgent() {
  const calls: string[] = [];
  let cardFails = false;
  const agent = await startRawAgent((_req, res, { base, rpc }) => {
    if (rpc === undefined) {
      calls.push('card');
      if (cardFails) return void res.writeHead(500).end();
      const card = rawCard(base, 'no-cache', 'a card never to be cached');
      return sendJson(res, card, { 'cache-control': 'no-cache' });
    }
    calls.push(rpc.method);
    const task = (state: string, text?: string) => ({
      id: 'T',
      contextId: 'C',
      status: { state },
      ...(text ? { artifacts: [{ artifactId: 'A', parts: [{ text }] }] } : {}),
    });
    if (rpc.method === 'GetTask' || rpc.method === 'CancelTask') {
      const state = rpc.method === 'GetTask' ? 'TASK_STATE_COMPLETED' : 'TASK_STATE_CANCELED';
      return sendJson(res, { jsonrpc: '2.0', id: rpc.id, result: task(state, 'Done.') });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    // The first stream closes while the task works; a resubscribe is refused, so the turn polls.
    if (rpc.method === 'SendStreamingMessage') res.end(sseFrame(rpc.id, { task: task('TASK_STATE_WORKING') }));
    else res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: rpc.id, error: { code: -32004, message: 'no resubscribe here' } })}\n\n`);
  });
  return { ...agent, calls, failCard: () => (cardFails = true) };
}

const POLICY = { policy: { reconnect: { initialDelayMs: 5, maxDelayMs: 10 }, poll: { initialDelayMs: 5, maxDelayMs: 10 } } };

describe('a turn keeps the card it started with', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it('a no-cache card is fetched once per turn, not once per call', async () => {
    const agent = await noCacheAgent();
    const http = createNodeFetch();
    closers.push(agent.close, http.close);
    const ports = createSdkPorts({ fetch: http.fetch });
    const events = await lastValueFrom(runTurn(ports(agent.url), { text: 'hi' }, POLICY).pipe(toArray()));
    expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: 'Done.' });
    expect(agent.calls).toEqual(['card', 'SendStreamingMessage', 'SubscribeToTask', 'GetTask']);
    // The next turn asks for the card again (no-cache), once.
    await lastValueFrom(runTurn(ports(agent.url), { text: 'again' }, POLICY).pipe(toArray()));
    expect(agent.calls.filter((c) => c === 'card')).toHaveLength(2);
  });

  it("a card endpoint failing mid-turn does not stop the turn's resubscribe, poll or CancelTask", async () => {
    const agent = await noCacheAgent();
    const http = createNodeFetch();
    closers.push(agent.close, http.close);
    const port = createSdkPorts({ fetch: http.fetch })(agent.url);
    const seen: TurnEvent[] = [];
    await new Promise<void>((resolve, reject) => {
      runTurn(port, { text: 'hi' }, POLICY).subscribe({
        next: (event) => {
          seen.push(event);
          if (event.type === 'task') agent.failCard();
        },
        error: reject,
        complete: resolve,
      });
    });
    expect(seen.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: 'Done.' });
    expect(agent.calls).toEqual(['card', 'SendStreamingMessage', 'SubscribeToTask', 'GetTask']);
  });
});
