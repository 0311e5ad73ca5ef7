import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeFetch } from '../../../src/node/fetch.js';
import type { TurnEvent } from '../../../src/port/events.js';
import { DRAIN_MS } from '../../../src/sdk/wire/reader/json-rpc.js';
import { createSdkPorts } from '../../../src/sdk/ports.js';
import { runTurn } from '../../../src/turn/turn.js';
import { sendJson, sseFrame, startRawAgent, type RawAgent } from '../raw-agent.js';

/**
 * The turn ends at the agent's last word (a completed task), usually a moment before the body's own
 * end. Our reader lets that body end instead of aborting it, so the connection goes back to the pool
 * (an abort costs the socket); a body that does not end soon is aborted after all.
 */
const card = (base: string) => ({
  name: 'drain',
  supportedInterfaces: [{ url: `${base}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: { streaming: true },
});

/** An agent that says its last word, then ends the body after `endAfterMs` (never when undefined). */
function agent(endAfterMs: number | undefined, closed: number[] = []): Promise<RawAgent> {
  return startRawAgent((req, res, { base, rpc }) => {
    if (rpc === undefined) return sendJson(res, card(base));
    const sentAt = Date.now();
    res.on('close', () => closed.push(Date.now() - sentAt));
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(sseFrame(rpc.id, { task: { id: 'T', contextId: 'C', status: { state: 'TASK_STATE_WORKING' } } }));
    res.write(
      sseFrame(rpc.id, { artifactUpdate: { taskId: 'T', contextId: 'C', artifact: { artifactId: 'A', parts: [{ text: 'Done.' }] } } }),
    );
    res.write(sseFrame(rpc.id, { statusUpdate: { taskId: 'T', contextId: 'C', status: { state: 'TASK_STATE_COMPLETED' } } }));
    if (endAfterMs !== undefined) setTimeout(() => res.end(), endAfterMs);
  });
}

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** `count` turns one after another, `pauseMs` apart (time for a draining body to end). */
async function turns(server: RawAgent, count: number, pauseMs = 0, connections: number[] = []): Promise<TurnEvent[][]> {
  const http = createNodeFetch();
  cleanup.push(() => http.close());
  const ports = createSdkPorts({ fetch: http.fetch });
  const out: TurnEvent[][] = [];
  for (let i = 0; i < count; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    out.push(await lastValueFrom(runTurn(ports(server.url), { text: 'go' }).pipe(toArray())));
    connections.push(server.connections);
  }
  return out;
}

describe('the end of a stream after its last word', () => {
  it('is read, not aborted: the next turns reuse the connection', async () => {
    const server = await agent(30);
    cleanup.push(() => server.close());
    const connections: number[] = [];
    const seen = await turns(server, 3, 150, connections);
    for (const events of seen) expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: 'Done.' });
    // The second and third turns open no connection (an aborted body would have cost one per turn).
    expect(connections[2]).toBe(connections[0]);
  });

  it('is aborted when the body does not end within the drain bound, and the turn does not wait for it', async () => {
    const closed: number[] = [];
    const server = await agent(undefined, closed);
    cleanup.push(() => server.close());
    const started = Date.now();
    const [events] = await turns(server, 1);
    expect(events!.at(-1)).toMatchObject({ type: 'end', outcome: 'completed' });
    expect(Date.now() - started).toBeLessThan(DRAIN_MS);
    await new Promise((resolve) => setTimeout(resolve, DRAIN_MS + 300));
    expect(closed).toHaveLength(1);
    expect(closed[0]).toBeGreaterThanOrEqual(DRAIN_MS - 50);
  });
});
