import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTaskAgent, TASK_MOUNTS } from '../../fixtures/agent-tasks.js';
import { tickText } from '../../fixtures/texts.js';
import type { FixtureAgent } from '../../fixtures/types.js';
import { createA2A } from '../../src/node/create-a2a.js';
import type { PushWhen } from '../../src/port/push.js';
import { SECRET, startReceiver, type LoopbackReceiver } from './receiver-kit.js';

// A turn followed by push against a real @a2a-js/sdk 1.3 agent and its own push sender: the message
// asks, the agent posts, the receiver checks, the turn shows, and no stream is held.

let agent: FixtureAgent;
let rx: LoopbackReceiver;

beforeAll(async () => {
  agent = await startTaskAgent({ timing: { tickMs: 40, slowTotalMs: 400 } });
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
  await agent.close();
});

function client(when: PushWhen) {
  return createA2A({ identitySecret: SECRET, push: { source: rx.receiver, when, checkEveryMs: 5_000 }, logger: undefined });
}

const methods = () =>
  agent.received.filter((request) => request.method !== 'GET /.well-known/agent-card.json').map((request) => request.method);

describe('a turn followed by push, against @a2a-js/sdk 1.3 and its push sender', () => {
  it('asks with the message, holds no stream, and shows every chunk the agent posted once, in order', async () => {
    agent.received.length = 0;
    const a2a = client('offered');
    const events = await lastValueFrom(
      a2a.turn({ agent: agent.url(TASK_MOUNTS.push), handle: 'h', thread: 'pushed-1', text: 'slow' }).pipe(toArray()),
    );
    await a2a.close();
    const end = events.at(-1)!;
    expect(end).toMatchObject({ type: 'end', outcome: 'completed' });
    // Ten chunks, appended: each once, in order (the agent's own record is its script: tick 1 … tick 10).
    expect(end.type === 'end' && end.text).toBe(Array.from({ length: 10 }, (_, i) => tickText(i + 1)).join(''));
    // And by the pushes alone, before the reply was read once more at the end: nothing doubled, nothing lost.
    const pushed = events.slice(
      0,
      events.findIndex((event) => event.type === 'reconcile'),
    );
    const shown = pushed.reduce((text, event) => (event.type === 'text' ? (event.replace ? event.text : text + event.text) : text), '');
    expect(end.type === 'end' && shown).toBe(end.type === 'end' && end.text);
    expect(events.map((event) => event.type)).toContain('push');
    // One SendMessage that returned at once; GetTask for the reply at the end; no stream, no resubscribe.
    expect(methods().filter((method) => /Stream|Subscribe/.test(method))).toEqual([]);
    expect(methods().filter((method) => method === 'SendMessage')).toHaveLength(1);
    expect(rx.receiver.stats().outcomes.taken).toBeGreaterThanOrEqual(12);
    expect(rx.receiver.stats().following).toBe(0);
  });

  it('hands a stream that ran past afterMs over to pushes, and ends the same', async () => {
    agent.received.length = 0;
    const a2a = client({ afterMs: 150 });
    const events = await lastValueFrom(
      a2a.turn({ agent: agent.url(TASK_MOUNTS.push), handle: 'h', thread: 'pushed-2', text: 'slow' }).pipe(toArray()),
    );
    await a2a.close();
    expect(events.filter((event) => event.type === 'push').map((event) => event.type === 'push' && event.step)).toEqual(['handed-off']);
    expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed' });
    expect(methods()).toContain('SendStreamingMessage');
    expect(methods()).toContain('CreateTaskPushNotificationConfig');
  });
});
