import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { echoReply, INPUT_QUESTION, REPLY, REPLY_FILE, tickText, type FixtureAgent } from '../../../fixtures/index.js';
import { type FaultProxy } from '../../../fixtures/fault-proxy.js';
import { createA2A } from '../../../src/client/create-a2a.js';
import { deriveContextId } from '../../../src/identity/context-id.js';
import { type NodeFetch } from '../../../src/node/fetch.js';
import type { HistoryPage } from '../../../src/port/history.js';
import { running, SECRET, settle, editLists, onePerPage } from '../doors-kit.js';
import { useProxiedAgents } from '../../agent-rig.js';

// A `slow` reply of 10 ticks over a second: long enough to resume it while it runs.
const TIMING = { tickMs: 100, slowTotalMs: 1_000 };
const NOTE = new TextEncoder().encode('a note from the person');

let v1: FixtureAgent;
let v03: FixtureAgent;
let proxy: FaultProxy;
let http: NodeFetch;
useProxiedAgents(TIMING, (rig) => ({ v1, v03, proxy, http } = rig));

/** A process of a gateway: a client of its own, the agent through the proxy. */
const gateway = () =>
  createA2A({ identitySecret: SECRET, fetch: http.fetch, policy: { firstEventTimeoutMs: 3_000, turnTimeoutMs: 15_000 } });
const on = (handle: string, thread: string, agent = proxy.url('/')) => ({ agent, handle, thread });
const endOf = async (turn: ReturnType<typeof settle>) => (await turn).events.at(-1) as { outcome?: string; taskId?: string };
/** A page as a chat shows it: the person's first text, the reply, the outcome. */
const shown = (page: HistoryPage) => page.exchanges.map((e) => [e.user[0]?.text ?? null, e.reply, e.outcome ?? e.state]);

describe("v1.0: a thread's history, from the agent, after the process that talked is gone", () => {
  it('three exchanges (a file each way, a question last): all three in order, with the replies and outcomes the turns ended with', async () => {
    const talking = gateway();
    const thread = on('ada', 'three');
    const ended = [
      await endOf(settle(talking.turn({ ...thread, text: 'hello', files: [{ mediaType: 'text/plain', name: 'hello.txt', bytes: NOTE }] }))),
      await endOf(settle(talking.turn({ ...thread, text: 'file' }))),
      await endOf(settle(talking.turn({ ...thread, text: 'input' }))),
    ];
    await talking.close();

    const reader = gateway(); // a new process: nothing remembered
    const page = await lastValueFrom(reader.history(thread));
    expect(shown(page)).toEqual([
      ['hello', echoReply('hello'), 'completed'],
      ['file', REPLY.file, 'completed'],
      ['input', INPUT_QUESTION, 'input-required'],
    ]);
    expect(page.exchanges.map((e) => e.taskId)).toEqual(ended.map((e) => e.taskId));
    expect(page.exchanges[0]!.user[0]!.attachments).toEqual([
      { kind: 'file', name: 'hello.txt', mediaType: 'text/plain', size: NOTE.length, bytes: expect.any(Uint8Array) },
    ]);
    const [file] = page.exchanges[1]!.attachments ?? [];
    expect(file).toMatchObject({ kind: 'file', name: REPLY_FILE.filename, mediaType: REPLY_FILE.mediaType });
    expect(file?.kind === 'file' && new TextDecoder().decode(file.bytes)).toBe(REPLY_FILE.text);
    const times = page.exchanges.map((e) => Date.parse(e.timestamp!));
    expect(times.every(Number.isFinite)).toBe(true);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(page.contextId).toBe(await deriveContextId(SECRET, 'ada', 'three'));
    expect(page.before).toBeUndefined();
    await reader.close();
  });

  it('"load earlier": one task per ListTasks page (the proxy), limit 2, then the page before with its cursor', async () => {
    const talking = gateway();
    const thread = on('bob', 'pages');
    for (const text of ['one', 'two', 'three']) await settle(talking.turn({ ...thread, text }));
    await talking.close();
    editLists(proxy, onePerPage, Infinity);
    const reader = gateway();
    const listed = proxy.count('list');
    const newest = await lastValueFrom(reader.history({ ...thread, limit: 2 }));
    expect(shown(newest)).toEqual([
      ['two', echoReply('two'), 'completed'],
      ['three', echoReply('three'), 'completed'],
    ]);
    expect(proxy.count('list') - listed).toBe(2);
    const earlier = await lastValueFrom(reader.history({ ...thread, limit: 2, before: newest.before! }));
    expect(shown(earlier)).toEqual([['one', echoReply('one'), 'completed']]);
    expect(earlier.before).toBeUndefined();
    await reader.close();
  });

  it("an agent that ignores the contextId filter: another thread's tasks never appear", async () => {
    const talking = gateway();
    const alice = await endOf(settle(talking.turn({ ...on('alice', 'inbox'), text: 'my secret plan' })));
    await settle(talking.turn({ ...on('mallory', 'inbox'), text: 'hello' }));
    const aliceContext = await deriveContextId(SECRET, 'alice', 'inbox');
    editLists(
      proxy,
      (listed) =>
        listed.result?.tasks.unshift({
          id: alice.taskId,
          contextId: aliceContext,
          status: { state: 'TASK_STATE_COMPLETED', timestamp: new Date().toISOString() },
          artifacts: [{ artifactId: 'a', parts: [{ text: 'echo: my secret plan' }] }],
        }),
      Infinity,
    );
    const page = await lastValueFrom(talking.history(on('mallory', 'inbox')));
    expect(shown(page)).toEqual([['hello', echoReply('hello'), 'completed']]);
    expect(JSON.stringify(page)).not.toContain('secret');
    await talking.close();
  });

  it('an agent that keeps no history of its tasks: each exchange has its reply, and no message of the person', async () => {
    const talking = gateway();
    await settle(talking.turn({ ...on('carol', 'forgetful'), text: 'artifacts' }));
    editLists(proxy, (listed) => {
      for (const task of listed.result?.tasks ?? []) delete task['history'];
    });
    const page = await lastValueFrom(talking.history(on('carol', 'forgetful')));
    expect(shown(page)).toEqual([[null, REPLY.artifacts, 'completed']]);
    expect(page.exchanges[0]!.user).toEqual([]);
    await talking.close();
  });
});

describe('v0.3 agents list no tasks', () => {
  it('history is an unsupported error that a UI can show, and nothing reaches the agent', async () => {
    const client = gateway();
    await settle(client.turn({ ...on('dan', 'old', v03.url('/')), text: 'hello' }));
    const before = v03.received.length;
    const error = await lastValueFrom(client.history(on('dan', 'old', v03.url('/')))).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'unsupported', operation: 'list-tasks' });
    expect((error as Error).message).toMatch(/cannot list a conversation's tasks .*no history/);
    expect(v03.received.slice(before).map((r) => r.method)).toEqual([]);
    await client.close();
  });
});

describe("a resumed reply shows the person's message it answers", () => {
  for (const version of ['v1.0', 'v0.3'] as const) {
    it(`${version}: a request event right after the task, from the resubscription's snapshot (the task by its id)`, async () => {
      const agent = version === 'v1.0' ? v1 : v03;
      const first = gateway();
      const thread = on('erin', `resumed-${version}`, agent.url('/'));
      const hers = running(first.turn({ ...thread, text: 'slow please', onLeave: 'detach' }));
      const taskId = await hers.named;
      hers.leave();
      const second = gateway();
      const { events, error } = await settle(second.resume({ ...thread, taskId }));
      expect(error).toBeUndefined();
      expect(events.slice(0, 3).map((e) => e.type)).toEqual(['start', 'task', 'request']);
      expect(events[2]).toMatchObject({ type: 'request', text: 'slow please', messageId: expect.any(String) });
      expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: expect.stringContaining(tickText(10)) });
      await Promise.all([first.close(), second.close()]);
    });
  }
});
