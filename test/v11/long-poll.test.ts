import { lastValueFrom, map, toArray, type Observable } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { startV11Agent, V11_MOUNTS, type V11Agent } from '../../fixtures/agent-v11.js';
import { slowTask } from '../../fixtures/v11-rpc.js';
import { createA2A } from '../../src/node/create-a2a.js';
import { ForwardingPort } from '../../src/port/forwarding.js';
import type { CardSummary } from '../../src/port/card.js';
import { createSdkPorts } from '../../src/sdk/ports.js';

// Polling a 1.1 agent is long-polling: one held GetTask per change of the task, where interval polling
// asks again and again; an agent that answers at once (longPoll: false) is polled at the usual pace.

/** The agent as one that does not stream: a resume of its task polls. */
class Polled extends ForwardingPort {
  override card(): Observable<CardSummary> {
    return super.card().pipe(map((card) => ({ ...card, streaming: false })));
  }
}

let agent: V11Agent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

/** A slow task (a tick every 150 ms, 1.2 s in all) followed by polling from its start; GetTasks and changes counted. */
async function polled(longPoll: boolean): Promise<{ gets: number; changes: number; held: number; outcome: string }> {
  agent = await startV11Agent({ longPoll, timing: { tickMs: 150, slowTotalMs: 1_200 } });
  const started = await slowTask(agent.jsonRpcUrl(V11_MOUNTS.main), { version: '1.1' });
  const sdk = createSdkPorts();
  const a2a = createA2A({
    identitySecret: 'long-poll-test-secret-0123456789',
    ports: (url, turn) => new Polled(sdk(url, turn)),
    policy: { poll: { initialDelayMs: 50, factor: 1, maxDelayMs: 50, jitter: 0 } },
  });
  const events = await lastValueFrom(a2a.resume({ agent: agent.url(V11_MOUNTS.main), taskId: String(started['id']) }).pipe(toArray()));
  await a2a.close();
  await sdk.close();
  const gets = agent.record.of('GetTask', String(started['id']));
  const changes = agent.record.generations(String(started['id'])).length;
  const end = events.at(-1);
  return {
    gets: gets.length,
    changes,
    held: gets.filter((get) => get.held !== undefined).length,
    outcome: end?.type === 'end' ? end.outcome : String(end?.type),
  };
}

describe('long-poll against the 1.1 fixture', () => {
  it('about one GetTask per change of the task, each held, where interval polling at 50 ms asks three times as often', async () => {
    const long = await polled(true);
    expect(long.outcome).toBe('completed');
    expect(long.held).toBeGreaterThan(0);
    expect(long.gets).toBeLessThanOrEqual(long.changes + 2);
    const interval = await polled(false);
    expect(interval.outcome).toBe('completed');
    // The 1.0-style agent answers at once: polled at the usual pace, no loop (1.2 s at 50 ms: about 24, not hundreds).
    expect(interval.held).toBe(0);
    expect(interval.gets).toBeGreaterThan(long.gets * 2);
    expect(interval.gets).toBeLessThan(60);
  });
});
