/**
 * `agentLimits` against a real SDK agent that counts the turns it runs at once (its own record): 200
 * turns asked at once of an agent bounded at 10, 20 of them left while they wait.
 */
import { Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../fixtures/http-host.js';
import { createA2A } from '../../src/node/create-a2a.js';
import type { TurnEvent } from '../../src/port/events.js';
import { eventually } from '../eventually.js';
import { startCountingAgent, type AgentRecord } from './agent-limit-agent.js';
import { SECRET } from './client-kit.js';

const TURNS = 200;
const BOUND = 10;
const DROPPED = 20;

/** Each turn's work at the agent: 20 to 50 ms, varied by the turn's number. */
const workMs = (text: string) => 20 + ((Number(text.split(' ')[1]) * 7) % 31);

let host: Host;
let record: AgentRecord;

beforeAll(async () => {
  ({ host, record } = await startCountingAgent(workMs));
});
afterAll(() => host.agent.close());

describe('agentLimits against a real agent', () => {
  it('200 turns at once, bounded at 10: never more than 10 at the agent, started in the order asked, and the 20 left while waiting never reach it', async () => {
    const agent = host.agent.url('/');
    const client = createA2A({ identitySecret: SECRET, agentLimits: { maxInFlight: BOUND } });
    // Which turns are left, and at which of their `queued` events (the 1st to 3rd): spread over the queue.
    const dropped = new Map(Array.from({ length: DROPPED }, (_, k) => [15 + k * 9, 1 + (k % 3)]));
    const starts: number[] = [];
    const ends: { turn: number; text: string; outcome: string }[] = [];
    const errors: unknown[] = [];
    const lastEvent: (TurnEvent['type'] | undefined)[] = [];
    const all = new Subscription();
    const done: Promise<void>[] = [];
    for (let turn = 0; turn < TURNS; turn++) {
      let queued = 0;
      done.push(
        new Promise<void>((resolve) => {
          // Made first: a turn's first `queued` comes while it is subscribed (an inner one added to it once closed is closed at once).
          const subscription = new Subscription();
          const turn$ = client.turn({ agent, handle: 'h', thread: `t${turn}`, text: `turn ${turn}` });
          subscription.add(
            turn$.subscribe({
              next: (event) => {
                lastEvent[turn] = event.type;
                if (event.type === 'start') starts.push(turn);
                if (event.type === 'end') ends.push({ turn, text: event.text, outcome: event.outcome });
                if (event.type === 'queued' && ++queued === dropped.get(turn)) {
                  subscription.unsubscribe();
                  resolve();
                }
              },
              error: (error: unknown) => {
                errors.push(error);
                resolve();
              },
              complete: resolve,
            }),
          );
          all.add(subscription);
        }),
      );
    }
    await Promise.all(done);
    await client.close();
    all.unsubscribe();

    expect(errors).toEqual([]);
    // Each dropped turn was left while it waited: its last event was `queued`.
    for (const turn of dropped.keys()) expect(lastEvent[turn]).toBe('queued');
    const kept = Array.from({ length: TURNS }, (_, turn) => turn).filter((turn) => !dropped.has(turn));
    // The agent's own count never passed the bound, and the turns did run side by side (not one by one).
    expect(record.highest).toBeLessThanOrEqual(BOUND);
    expect(record.highest).toBeGreaterThan(BOUND / 2);
    // The client started the turns in the order they were asked; every kept one finished with its reply.
    expect(starts).toEqual(kept);
    expect(ends).toHaveLength(kept.length);
    for (const end of ends) expect(end).toEqual({ turn: end.turn, text: `done: turn ${end.turn}`, outcome: 'completed' });
    // At the agent: the kept turns and no other; a turn never arrived after one asked 10 places later.
    await eventually(() => record.running === 0);
    expect([...record.arrived].sort()).toEqual(kept.map((turn) => `turn ${turn}`).sort());
    const arrivedAt = new Map(record.arrived.map((text, index) => [text, index]));
    for (let k = 0; k + BOUND < kept.length; k++) {
      expect(arrivedAt.get(`turn ${kept[k]}`)!).toBeLessThan(arrivedAt.get(`turn ${kept[k + BOUND]}`)!);
    }
    // Nothing of a dropped turn reached the agent: no message, and no lookup under its thread's contextId.
    const received = JSON.stringify(host.agent.received.map((request) => request.params ?? null));
    for (const turn of dropped.keys()) {
      expect(received).not.toContain(`"turn ${turn}"`);
      expect(received).not.toContain(await client.contextId('h', `t${turn}`));
    }
  });
});
