import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_QUESTION, startV03Agent, startV1Agent, tickText, bookedReply, type FixtureAgent } from '../../../fixtures/index.js';
import { createA2A } from '../../../src/client/create-a2a.js';
import { deriveContextId } from '../../../src/identity/context-id.js';
import { createNodeFetch, type NodeFetch } from '../../../src/node/fetch.js';
import type { TurnEvent } from '../../../src/port/events.js';
import { cancelsOf, running, SECRET, sentTo, settle } from '../doors-kit.js';

// B's `slow` reply ticks for 1.5 s: long enough for A to try its doors while it runs.
const TIMING = { tickMs: 100, slowTotalMs: 1_500 };
const SLOW_REPLY = Array.from({ length: 15 }, (_, i) => tickText(i + 1)).join('');
const POLICY = { firstEventTimeoutMs: 3_000, turnTimeoutMs: 15_000, poll: { initialDelayMs: 30, maxDelayMs: 60 } };

let agents: Record<'v1.0' | 'v0.3', FixtureAgent>;
let http: NodeFetch;
beforeAll(async () => {
  const [v1, v03] = await Promise.all([startV1Agent({ timing: TIMING }), startV03Agent({ timing: TIMING })]);
  agents = { 'v1.0': v1, 'v0.3': v03 };
  http = createNodeFetch();
});
afterAll(async () => {
  await Promise.all([agents['v1.0'].close(), agents['v0.3'].close(), http.close()]);
});

/** A gateway's client (one process; users are handles, threads their keys). */
const gateway = () => createA2A({ identitySecret: SECRET, fetch: http.fetch, policy: POLICY });
const textOf = (events: TurnEvent[]) => events.filter((e) => e.type === 'text' || e.type === 'status' || e.type === 'end');

for (const version of ['v1.0', 'v0.3'] as const) {
  describe(`${version}: a second user walks through the doors of the first's thread`, () => {
    const alice = (agent: FixtureAgent) => ({ agent: agent.url('/'), handle: 'alice', thread: 'support' });
    const mallory = (agent: FixtureAgent) => ({ agent: agent.url('/'), handle: 'mallory', thread: 'support' });

    it("resume by the other thread's task id or position: an error of its own kind, nothing shown, nothing cancelled, nothing adopted", async () => {
      const agent = agents[version];
      const client = gateway();
      const hers = running(client.turn({ ...alice(agent), text: 'slow', onLeave: 'detach' }));
      const taskId = await hers.named;
      const aliceContext = await deriveContextId(SECRET, 'alice', 'support');

      for (const door of [{ taskId }, { from: { taskId, delivered: 3 } }]) {
        const { events, error } = await settle(client.resume({ ...mallory(agent), ...door }));
        expect(error).toMatchObject({ kind: 'foreign-task', retryable: false });
        expect(events.map((e) => e.type)).toEqual(['start']);
        // The error names the task the caller gave, never the other conversation's contextId.
        expect(String((error as Error).message)).not.toContain(aliceContext);
      }
      expect(client.thread(mallory(agent).agent, 'mallory', 'support')?.adoptedContextId).toBeUndefined();
      // Alice's reply is untouched: whole, once, not cancelled.
      const { events, error } = await hers.done;
      expect(error).toBeUndefined();
      expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: SLOW_REPLY });
      expect(cancelsOf(agent, taskId)).toBe(0);

      // Mallory's next message goes into her own conversation, not Alice's.
      const before = sentTo(agent).length;
      await settle(client.turn({ ...mallory(agent), text: 'what did she say?' }));
      expect(
        sentTo(agent)
          .slice(before)
          .map((m) => m.contextId),
      ).toEqual([await deriveContextId(SECRET, 'mallory', 'support')]);
      await client.close();
    });

    it("a message with the other thread's task id (its pending question): refused before it is sent; her question stays hers", async () => {
      const agent = agents[version];
      const client = gateway();
      const asked = (await settle(client.turn({ ...alice(agent), text: 'input' }))).events.at(-1);
      expect(asked).toMatchObject({ type: 'end', outcome: 'input-required', text: INPUT_QUESTION });
      const taskId = (asked as { taskId: string }).taskId;

      const before = sentTo(agent).length;
      const { events, error } = await settle(client.turn({ ...mallory(agent), text: 'Atlantis', taskId }));
      expect(error).toMatchObject({ kind: 'foreign-task' });
      expect(textOf(events)).toEqual([]);
      expect(sentTo(agent).length).toBe(before); // nothing reached the agent
      expect(client.thread(mallory(agent).agent, 'mallory', 'support')?.interruptedTaskId).toBeUndefined();

      // Alice answers her own question in its task.
      const answered = (await settle(client.turn({ ...alice(agent), text: 'Paris' }))).events.at(-1);
      expect(answered).toMatchObject({ type: 'end', outcome: 'completed', text: bookedReply('Paris'), taskId });
      await client.close();
    });

    it("cancel by the other thread's task id: refused, nothing cancelled; her own cancel stops her task", async () => {
      const agent = agents[version];
      const client = gateway();
      const hers = running(client.turn({ ...alice(agent), text: 'slow', onLeave: 'detach' }));
      const taskId = await hers.named;
      await expect(lastValueFrom(client.cancel({ ...mallory(agent), taskId }))).rejects.toMatchObject({ kind: 'foreign-task' });
      expect(cancelsOf(agent, taskId)).toBe(0);
      const canceled = await lastValueFrom(client.cancel({ ...alice(agent), taskId }));
      expect(canceled).toMatchObject({ id: taskId, status: { state: 'canceled' } });
      expect(cancelsOf(agent, taskId)).toBe(1);
      expect((await hers.done).events.at(-1)).toMatchObject({ type: 'end', outcome: 'canceled' });
      await client.close();
    });

    it('the caller vouches: a resume without a thread follows the task it names (an operator with --task)', async () => {
      const agent = agents[version];
      const client = gateway();
      const hers = running(client.turn({ ...alice(agent), text: 'slow', onLeave: 'detach' }));
      const taskId = await hers.named;
      const { events, error } = await settle(client.resume({ agent: agent.url('/'), taskId, onLeave: 'detach' }));
      expect(error).toBeUndefined();
      expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: SLOW_REPLY });
      await hers.done;
      await client.close();
    });
  });
}

describe('caller ids are bounded like the agent’s, before any request', () => {
  for (const [what, input] of [
    ['a 1 MB task id', { taskId: 'x'.repeat(1_000_000) }],
    ['a task id with CR/LF', { taskId: 'T\r\nX-Evil: 1' }],
    ['a contextId with a NUL', { contextId: 'C\u0000' }],
    ['a messageId of 1,025 characters', { messageId: 'm'.repeat(1_025) }],
  ] as const) {
    it(`${what}: an input error, nothing sent`, async () => {
      const agent = agents['v1.0'];
      const client = gateway();
      const before = agent.received.length;
      const { events, error } = await settle(client.turn({ agent: agent.url('/'), handle: 'h', thread: 't', text: 'hi', ...input }));
      expect(error).toMatchObject({ kind: 'input' });
      expect(String((error as Error).message)).not.toContain('X-Evil');
      expect(events.map((e) => e.type)).toEqual(['start']);
      expect(agent.received.length).toBe(before);
      await client.close();
    });
  }

  it('a position whose task id is too long: an input error before any request', async () => {
    const agent = agents['v1.0'];
    const client = gateway();
    const before = agent.received.length;
    const { error } = await settle(
      client.resume({ agent: agent.url('/'), handle: 'h', thread: 't', from: { taskId: 'y'.repeat(2_000), delivered: 0 } }),
    );
    expect(error).toMatchObject({ kind: 'input', message: expect.stringContaining('1024') });
    expect(agent.received.length).toBe(before);
    await client.close();
  });
});
