/**
 * The `agentLimits` option: checked when the client is made, its default queue, its error (no
 * secret in it), and the view of a waiting turn.
 */
import { NEVER } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentLimitsOption } from '../../src/client/agent-limit-option.js';
import { createA2A } from '../../src/client/create-a2a.js';
import { isA2AError } from '../../src/errors.js';
import type { TurnEvent } from '../../src/port/events.js';
import { initialTurnView, reduceTurn } from '../../src/render/view.js';
import { createFakePort } from '../../src/testing/index.js';
import { handles } from '../../fixtures/handles.js';
import { eventually } from '../eventually.js';
import { SECRET } from './client-kit.js';

const refused: [string, unknown, string][] = [
  ['maxInFlight 0', { maxInFlight: 0 }, 'agentLimits.maxInFlight: it must be at least 1'],
  ['maxInFlight 1.5', { maxInFlight: 1.5 }, 'agentLimits.maxInFlight: it must be an integer'],
  ['maxInFlight "10"', { maxInFlight: '10' }, 'agentLimits.maxInFlight: it must be a number'],
  ['maxStartsPerSecond 0', { maxStartsPerSecond: 0 }, 'agentLimits.maxStartsPerSecond: it must be at least 1'],
  ['maxStartsPerSecond 10,001', { maxStartsPerSecond: 10_001 }, 'agentLimits.maxStartsPerSecond: it must be at most 10000'],
  ['maxQueued -1', { maxQueued: -1 }, 'agentLimits.maxQueued: it must be at least 0'],
  ['a list', [], 'agentLimits: it must be an object'],
  ['agents as a list', { agents: [] }, 'agentLimits.agents: it must be an object'],
  ['an agents key that is no http URL', { agents: { 'ftp://h': {} } }, 'must be an http(s) origin or URL prefix'],
  ['an agents key with credentials', { agents: { 'http://u:p@h/': {} } }, 'must carry no user, password, query or fragment'],
  [
    'a bad agents entry',
    { agents: { 'http://h/': { maxInFlight: -2 } } },
    'agentLimits.agents.http://h/.maxInFlight: it must be at least 1',
  ],
];

describe('the agentLimits option', () => {
  it.each(refused)('%s is a config error from createA2A', (_, agentLimits, says) => {
    let thrown: unknown;
    try {
      createA2A({ identitySecret: SECRET, ports: () => createFakePort({}), agentLimits: agentLimits as AgentLimitsOption });
    } catch (error) {
      thrown = error;
    }
    expect(isA2AError(thrown, 'config')).toBe(true);
    expect((thrown as Error).message).toContain(says);
  });

  it('queues 1,000 turns by default; the next fails at once with start then a retryable queue-full error, sending nothing, its agent named without its query', async () => {
    const port = createFakePort({ card: () => NEVER });
    const client = createA2A({ identitySecret: SECRET, ports: () => port, agentLimits: { maxInFlight: 1 } });
    const agent = 'http://127.0.0.1/a?key=sk-secret-value';
    const seen: TurnEvent[][] = [];
    const subscriptions = Array.from({ length: 1_001 }, (_, n) => {
      const events: TurnEvent[] = [];
      seen.push(events);
      return client
        .turn({ agent, handle: 'h', thread: `t${n}`, text: 'hi' })
        .subscribe({ next: (e) => events.push(e), error: () => undefined });
    });
    expect(seen[1_000]!.at(-1)).toEqual({ type: 'queued', place: 1_000 });
    let error: unknown;
    const events: TurnEvent[] = [];
    client
      .turn({ agent, handle: 'h', thread: 'late', text: 'hi' })
      .subscribe({ next: (e) => events.push(e), error: (e: unknown) => (error = e) });
    expect(events).toEqual([{ type: 'start' }]);
    expect(error).toMatchObject({ kind: 'queue-full', retryable: true, operation: 'turn' });
    expect((error as Error).message).toContain('1000 turns wait for this agent already');
    expect((error as Error).message).not.toContain('sk-secret-value');
    // Only the running turn asked (its card, and its thread's lookup beside it); the waiting ones and the refused one asked nothing.
    await eventually(() => port.calls.length >= 2);
    expect(port.calls.map((c) => c.method)).toEqual(['card', 'listTasks']);
    for (const subscription of subscriptions) subscription.unsubscribe();
    await client.close();
  });

  it("close() leaves no timer of the rate's behind (a turn waiting for the next second)", async () => {
    const before = handles().get('Timeout') ?? 0;
    const port = createFakePort({ card: () => NEVER });
    const client = createA2A({ identitySecret: SECRET, ports: () => port, agentLimits: { maxStartsPerSecond: 1 } });
    const events: TurnEvent[] = [];
    client.turn({ agent: 'http://127.0.0.1/', handle: 'h', thread: 'a', text: 'hi' }).subscribe({ error: () => undefined });
    client
      .turn({ agent: 'http://127.0.0.1/', handle: 'h', thread: 'b', text: 'hi' })
      .subscribe({ next: (e) => events.push(e), error: () => undefined });
    expect(events).toEqual([{ type: 'queued', place: 1 }]);
    await client.close();
    expect(handles().get('Timeout') ?? 0).toBe(before);
  });

  it("without the option no turn waits, and a client's turns run side by side", async () => {
    const port = createFakePort({ card: () => NEVER });
    const client = createA2A({ identitySecret: SECRET, ports: () => port });
    const subscriptions = Array.from({ length: 50 }, (_, n) =>
      client.turn({ agent: 'http://127.0.0.1/', handle: 'h', thread: `t${n}`, text: 'hi' }).subscribe(),
    );
    await eventually(() => port.calls.filter((call) => call.method === 'card').length === 50);
    for (const subscription of subscriptions) subscription.unsubscribe();
    await client.close();
  });

  it("the view (reduceTurn) keeps a waiting turn's place until it starts", () => {
    const events: TurnEvent[] = [{ type: 'queued', place: 2 }, { type: 'queued', place: 1 }, { type: 'start' }];
    let view = initialTurnView;
    const places: (number | undefined)[] = [];
    for (const event of events) {
      view = reduceTurn(view, event);
      places.push(view.queued);
    }
    expect(places).toEqual([2, 1, undefined]);
  });
});
