import { describe, expect, it } from 'vitest';
import { echoReply, tickText, type FixtureAgent } from '../../../fixtures/index.js';
import { type FaultProxy } from '../../../fixtures/fault-proxy.js';
import { createA2A } from '../../../src/client/create-a2a.js';
import { type NodeFetch } from '../../../src/node/fetch.js';
import { cancelsOf, running, SECRET, sentTo, settle } from '../doors-kit.js';
import { useProxiedAgents } from '../../agent-rig.js';

const TIMING = { tickMs: 100, slowTotalMs: 1_000 };
const SLOW_REPLY = Array.from({ length: 10 }, (_, i) => tickText(i + 1)).join('');

let agent: FixtureAgent;
let v03: FixtureAgent;
let proxy: FaultProxy;
let http: NodeFetch;
useProxiedAgents(TIMING, (rig) => ({ v1: agent, v03, proxy, http } = rig));

/** A gateway process: a client of its own; the agent reached through the proxy. */
const GRACE_MS = 1_000;
const process_ = () =>
  createA2A({
    identitySecret: SECRET,
    fetch: http.fetch,
    policy: { firstEventTimeoutMs: 5_000, turnTimeoutMs: 15_000, notReceivedAfterMs: GRACE_MS, clockSkewMs: 200 },
  });
const thread = (key: string) => ({ agent: proxy.url('/'), handle: 'frank', thread: key });
/** How many times the agent received the message `messageId` (its own record). */
const received = (messageId: string) => sentTo(agent).filter((m) => m.messageId === messageId).length;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a message's id", () => {
  for (const version of ['v1.0', 'v0.3'] as const) {
    it(`${version}: the caller's reaches the agent, and the start event names it`, async () => {
      const target = version === 'v1.0' ? agent : v03;
      const client = process_();
      const { events } = await settle(
        client.turn({ agent: target.url('/'), handle: 'h', thread: 'ids', text: 'hello', messageId: 'msg-ids-1' }),
      );
      expect(events[0]).toMatchObject({ type: 'start', messageId: 'msg-ids-1' });
      expect(sentTo(target).filter((m) => m.messageId === 'msg-ids-1')).toHaveLength(1);
      await client.close();
    });
  }
});

describe('a process dies between sending a message and the agent naming its task', () => {
  it('the agent got it: another process finds its task by messageId and follows it to the end; nothing is sent again', async () => {
    // The agent's answer never comes back to the first process: it dies (leaves without a CancelTask).
    proxy.plan({ on: 'stream', fault: { type: 'stall', afterEvents: 0, ms: Infinity } });
    const first = process_();
    const dying = running(first.turn({ ...thread('died'), text: 'slow', messageId: 'msg-died', onLeave: 'detach' }));
    await sleep(300);
    dying.leave();
    await first.close();
    expect(received('msg-died')).toBe(1);

    const second = process_();
    const { events, error } = await settle(second.resume({ ...thread('died'), messageId: 'msg-died' }));
    expect(error).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: SLOW_REPLY });
    expect(received('msg-died')).toBe(1);
    const taskId = (events.find((e) => e.type === 'task') as { taskId: string }).taskId;
    expect(cancelsOf(agent, taskId)).toBe(0);
    await second.close();
  });

  it('the agent never got it: the resume says so (not-received) once the grace since it was sent passed, and the message sent again arrives once', async () => {
    proxy.plan({ on: 'stream', fault: { type: 'refuse' } });
    const first = process_();
    const sentAt = Date.now();
    const lost = await settle(first.turn({ ...thread('lost'), text: 'are you there?', messageId: 'msg-lost' }));
    expect(lost.error).toMatchObject({ kind: 'network' });
    expect(received('msg-lost')).toBe(0);
    await first.close();

    const second = process_();
    const asked = await settle(second.resume({ ...thread('lost'), messageId: 'msg-lost', sentAt }));
    // Not before notReceivedAfterMs since it was sent: until then the agent may still be taking it.
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(GRACE_MS);
    expect(asked.error).toBeUndefined();
    expect(asked.events.at(-1)).toMatchObject({ type: 'end', outcome: 'not-received', messageId: 'msg-lost' });
    const again = await settle(second.turn({ ...thread('lost'), text: 'are you there?', messageId: 'msg-lost' }));
    expect(again.events.at(-1)).toMatchObject({ outcome: 'completed', text: echoReply('are you there?') });
    expect(received('msg-lost')).toBe(1);
    await second.close();
  });

  it('on a thread with 250 earlier tasks: with sentAt the lookup answers (not-received, sent again once); without, unknown, never an error', async () => {
    const client = process_();
    // 250 earlier exchanges on the thread, 50 at a time (parallel, not queued): more than the lookup's 10 pages of 20.
    const parallel = createA2A({ identitySecret: SECRET, fetch: http.fetch, policy: { secondMessage: 'parallel' } });
    for (let batch = 0; batch < 5; batch++) {
      await Promise.all(
        Array.from({ length: 50 }, (_, i) => settle(parallel.turn({ ...thread('long'), text: `earlier ${batch * 50 + i}` }))),
      );
    }
    await parallel.close();
    await sleep(400); // their status is older than the lost message's sentAt less the policy's clockSkewMs (200 ms)
    proxy.plan({ on: 'stream', fault: { type: 'refuse' } });
    const sentAt = Date.now();
    const lost = await settle(client.turn({ ...thread('long'), text: 'the one that died', messageId: 'msg-long' }));
    expect(lost.error).toMatchObject({ kind: 'network' });
    expect(received('msg-long')).toBe(0);

    const blind = await settle(client.resume({ ...thread('long'), messageId: 'msg-long' }));
    expect(blind.error).toBeUndefined();
    expect(blind.events.at(-1)).toMatchObject({ type: 'end', outcome: 'unknown', messageId: 'msg-long' });

    const bounded = await settle(client.resume({ ...thread('long'), messageId: 'msg-long', sentAt }));
    expect(bounded.error).toBeUndefined();
    expect(bounded.events.at(-1)).toMatchObject({ type: 'end', outcome: 'not-received', messageId: 'msg-long' });
    const again = await settle(client.turn({ ...thread('long'), text: 'the one that died', messageId: 'msg-long' }));
    expect(again.events.at(-1)).toMatchObject({ outcome: 'completed', text: echoReply('the one that died') });
    expect(received('msg-long')).toBe(1);
    await client.close();
  }, 60_000);

  it('v0.3 (no ListTasks): the resume cannot tell, and says so', async () => {
    const client = process_();
    const { error } = await settle(client.resume({ agent: v03.url('/'), handle: 'h', thread: 't', messageId: 'msg-v03' }));
    expect(error).toMatchObject({ kind: 'unsupported', operation: 'list-tasks' });
    await client.close();
  });
});

describe('close({ detach: true }) hands over only the turns the agent has named', () => {
  it('a turn still being sent is waited for: handed over once its task is named; no CancelTask; another process resumes it whole', async () => {
    proxy.plan({ on: 'stream', fault: { type: 'hang', ms: 600 } });
    const closing = process_();
    const turn = running(closing.turn({ ...thread('handover'), text: 'slow', messageId: 'msg-handover' }));
    await sleep(100);
    await closing.close({ detach: true });
    const { events, error } = await turn.done;
    const taskId = (events.find((e) => e.type === 'task') as { taskId: string } | undefined)?.taskId;
    expect(taskId).toBeDefined();
    expect(error).toMatchObject({ kind: 'aborted', message: expect.stringContaining('hand its turns over') });

    const next = process_();
    const resumed = await settle(next.resume({ ...thread('handover'), taskId: taskId! }));
    expect(resumed.events.at(-1)).toMatchObject({ outcome: 'completed', text: SLOW_REPLY });
    expect(cancelsOf(agent, taskId!)).toBe(0);
    await next.close();
  });

  it('a turn whose task is not named in time fails saying its message may not have arrived; nothing cancelled', async () => {
    proxy.plan({ on: 'stream', fault: { type: 'stall', afterEvents: 0, ms: Infinity } });
    const closing = process_();
    const turn = running(closing.turn({ ...thread('unnamed'), text: 'slow', messageId: 'msg-unnamed' }));
    await sleep(200);
    const started = performance.now();
    await closing.close({ detach: true, handOverWaitMs: 300 });
    expect(performance.now() - started).toBeLessThan(2_000);
    const { error } = await turn.done;
    expect(error).toMatchObject({ kind: 'aborted', message: expect.stringContaining('may not have arrived') });
    // It had arrived: the thread says so by its messageId.
    const next = process_();
    const found = await settle(next.resume({ ...thread('unnamed'), messageId: 'msg-unnamed' }));
    expect(found.events.at(-1)).toMatchObject({ outcome: 'completed', text: SLOW_REPLY });
    const taskId = (found.events.find((e) => e.type === 'task') as { taskId: string }).taskId;
    expect(cancelsOf(agent, taskId)).toBe(0);
    await next.close();
  });
});
