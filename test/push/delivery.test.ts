import { lastValueFrom, tap, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  chunkText,
  longDoneText,
  PUSH_MOUNTS,
  REPEAT_TEXT,
  startPushAgents,
  type PushAgents,
  type PushAgentsOptions,
} from '../../fixtures/agent-push.js';
import { createA2A } from '../../src/node/create-a2a.js';
import type { TurnEvent } from '../../src/port/events.js';
import { SECRET, startReceiver, type LoopbackReceiver } from './receiver-kit.js';

// Every event of a long task reaches the turn once, in order, counted against the agent's own record:
// through duplicate deliveries, a receiver that restarts, pushes that are lost, and both generations' senders.

let agents: PushAgents | undefined;
let rx: LoopbackReceiver | undefined;
afterEach(async () => {
  await rx?.close();
  await agents?.close();
  rx = agents = undefined;
});

async function start(options: PushAgentsOptions = {}): Promise<{ agents: PushAgents; rx: LoopbackReceiver }> {
  agents = await startPushAgents(options);
  rx = await startReceiver();
  return { agents, rx };
}

/** One turn followed by push, its events, and `during` run while it waits. */
async function pushedTurn(mount: string, text: string, during?: (events: TurnEvent[]) => void): Promise<TurnEvent[]> {
  const a2a = createA2A({ identitySecret: SECRET, push: { source: rx!.receiver, when: 'offered', checkEveryMs: 150 } });
  const seen: TurnEvent[] = [];
  const events = await lastValueFrom(
    a2a.turn({ agent: agents!.url(mount), handle: 'h', thread: `t-${Math.random()}`, text }).pipe(
      tap((event) => (seen.push(event), during?.(seen))),
      toArray(),
    ),
  );
  await a2a.close();
  return events;
}

/** The reply as the pushes built it, before the end's read corrected anything. */
function pushedText(events: TurnEvent[]): string {
  const until = events.findIndex((event) => event.type === 'reconcile');
  return events
    .slice(0, until < 0 ? undefined : until)
    .reduce((text, event) => (event.type === 'text' ? (event.replace ? event.text : text + event.text) : text), '');
}

const endOf = (events: TurnEvent[]) => events.at(-1) as Extract<TurnEvent, { type: 'end' }>;
const chunks = (n: number) => Array.from({ length: n }, (_, i) => chunkText(i + 1, n)).join('');
/** The chunk texts the agent published for the turn's task, in its own order. */
const recorded = (events: TurnEvent[]) =>
  agents!
    .record(endOf(events).taskId!)
    .filter((event) => event.kind === 'artifact')
    .map((event) => event.text)
    .join('');

describe('pushes counted against the agent', () => {
  it('duplicate deliveries: each status taken once; the end gives every chunk once, in order', async () => {
    await start({ duplicate: true });
    const events = await pushedTurn(PUSH_MOUNTS.v1, 'long 12 15');
    expect(endOf(events)).toMatchObject({ outcome: 'completed', text: chunks(12) });
    expect(endOf(events).text).toBe(recorded(events));
    // A 1.0 chunk has no identity: its second delivery is not told from a chunk sent twice, and shows until the end's read.
    const statuses = events.filter((event) => event.type === 'status').map((event) => event.type === 'status' && event.state);
    expect(statuses.filter((state) => state === 'completed')).toHaveLength(1);
    expect(rx!.receiver.stats().outcomes.duplicate).toBeGreaterThanOrEqual(2);
  });

  it('a receiver that restarts while the sender retries: every chunk shown once, in order', async () => {
    await start({ retry: { attempts: 20, delayMs: 40 } });
    let restarted: Promise<void> | undefined;
    const events = await pushedTurn(PUSH_MOUNTS.v1, 'long 16 20', (seen) => {
      if (restarted === undefined && seen.filter((event) => event.type === 'text').length === 3) restarted = rx!.restart(150);
    });
    await restarted;
    expect(agents!.pushes.some((push) => !push.ok)).toBe(true);
    expect(endOf(events)).toMatchObject({ outcome: 'completed', text: chunks(16) });
    expect(pushedText(events)).toBe(recorded(events));
  });

  it('pushes lost for good (a sender that does not retry): the checks and the end read give the whole reply, once', async () => {
    await start();
    let restarted: Promise<void> | undefined;
    const events = await pushedTurn(PUSH_MOUNTS.v1, 'long 16 20', (seen) => {
      if (restarted === undefined && seen.filter((event) => event.type === 'text').length === 3) restarted = rx!.restart(150);
    });
    await restarted;
    expect(agents!.pushes.filter((push) => !push.ok).length).toBeGreaterThan(0);
    expect(endOf(events)).toMatchObject({ outcome: 'completed', text: chunks(16) });
    expect(endOf(events).text).toBe(recorded(events));
  });

  it('the same chunk on purpose, again and again (identical bodies): each shown as it comes, none taken for a duplicate', async () => {
    await start();
    const events = await pushedTurn(PUSH_MOUNTS.v1, 'long-repeat 8 10');
    expect(endOf(events)).toMatchObject({ outcome: 'completed', text: REPEAT_TEXT.repeat(8) });
    expect(pushedText(events)).toBe(REPEAT_TEXT.repeat(8));
  });

  it.each([
    ['@a2a-js/sdk 0.3.14, the whole task after every event', PUSH_MOUNTS.v03],
    ['@a2a-js/sdk 1.3 serving both generations (legacy-aware sender)', PUSH_MOUNTS.compat],
  ])('%s: the reply whole, once', async (_name, mount) => {
    await start();
    const events = await pushedTurn(mount, 'long 10 15');
    expect(endOf(events)).toMatchObject({ outcome: 'completed' });
    expect(endOf(events).text).toBe(chunks(10));
    expect(pushedText(events)).toBe(chunks(10));
    expect(agents!.pushes.length).toBeGreaterThanOrEqual(10);
    expect(longDoneText(10)).toMatch(/^done/);
  });
});
