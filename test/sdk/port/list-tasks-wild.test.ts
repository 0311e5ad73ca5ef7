import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookedReply, echoReply, INPUT_QUESTION, startV1Agent, tickText, type FixtureAgent } from '../../../fixtures/index.js';
import { startFaultProxy, type FaultProxy } from '../../../fixtures/fault-proxy.js';
import { createA2A } from '../../../src/client/create-a2a.js';
import type { TurnPolicyInput } from '../../../src/turn/policy.js';
import { deriveContextId } from '../../../src/identity/context-id.js';
import { createNodeFetch, type NodeFetch } from '../../../src/node/fetch.js';
import { cancelsOf, running, SECRET, sentTo, settle, editLists, onePerPage } from '../doors-kit.js';

const TIMING = { tickMs: 100, slowTotalMs: 1_200, authResumeMs: 5_000 };
const SLOW_REPLY = Array.from({ length: 12 }, (_, i) => tickText(i + 1)).join('');

let agent: FixtureAgent;
let proxy: FaultProxy;
let http: NodeFetch;
beforeAll(async () => {
  agent = await startV1Agent({ timing: TIMING });
  proxy = await startFaultProxy(agent.baseUrl);
  http = createNodeFetch();
});
afterAll(async () => {
  await Promise.all([proxy.close(), http.close()]);
  await agent.close();
});
beforeEach(() => proxy.clear());

/** A replica of a gateway: a client of its own, the agent through the proxy. */
const replica = (policy: TurnPolicyInput = {}) =>
  createA2A({ identitySecret: SECRET, fetch: http.fetch, policy: { firstEventTimeoutMs: 3_000, turnTimeoutMs: 15_000, ...policy } });
const on = (handle: string, thread: string) => ({ agent: proxy.url('/'), handle, thread });
const endOf = async (turn: ReturnType<typeof settle>) => (await turn).events.at(-1) as { outcome?: string; text?: string; taskId?: string };

describe('ListTasks as agents in the wild answer it', () => {
  it("an agent that ignores the contextId filter: another thread's running task is never shown, subscribed or adopted", async () => {
    const client = replica();
    const hers = running(client.turn({ ...on('alice', 'inbox'), text: 'slow', onLeave: 'detach' }));
    const taskId = await hers.named;
    const aliceContext = await deriveContextId(SECRET, 'alice', 'inbox');
    // The agent answers every ListTasks with Alice's running task first, whatever the filter.
    editLists(
      proxy,
      (listed) =>
        listed.result?.tasks.unshift({
          id: taskId,
          contextId: aliceContext,
          status: { state: 'TASK_STATE_WORKING', timestamp: new Date().toISOString() },
        }),
      Infinity,
    );
    const { events, error } = await settle(client.resume(on('mallory', 'inbox')));
    expect(error).toBeUndefined();
    expect(events.map((e) => e.type)).toEqual(['start', 'end']);
    expect(events.at(-1)).toMatchObject({ outcome: 'none' });
    expect(proxy.count('resubscribe')).toBe(0);
    expect(client.thread(proxy.url('/'), 'mallory', 'inbox')).toMatchObject({ lookedUp: true });
    expect(client.thread(proxy.url('/'), 'mallory', 'inbox')?.adoptedContextId).toBeUndefined();
    expect((await hers.done).events.at(-1)).toMatchObject({ outcome: 'completed', text: SLOW_REPLY });
    expect(cancelsOf(agent, taskId)).toBe(0);
    await client.close();
  });

  it("the first-message lookup of such an agent never continues another thread's question", async () => {
    const client = replica();
    const asked = await endOf(settle(client.turn({ ...on('alice', 'desk'), text: 'input' })));
    expect(asked).toMatchObject({ outcome: 'input-required', text: INPUT_QUESTION });
    const aliceContext = await deriveContextId(SECRET, 'alice', 'desk');
    editLists(proxy, (listed) =>
      listed.result?.tasks.unshift({ id: asked.taskId!, contextId: aliceContext, status: { state: 'TASK_STATE_INPUT_REQUIRED' } }),
    );
    const fresh = replica();
    const before = sentTo(agent).length;
    const reply = await endOf(settle(fresh.turn({ ...on('mallory', 'desk'), text: 'Atlantis' })));
    expect(reply).toMatchObject({ outcome: 'completed', text: echoReply('Atlantis') });
    expect(
      sentTo(agent)
        .slice(before)
        .map((m) => m.taskId || undefined),
    ).toEqual([undefined]);
    // Alice's question still waits for her.
    expect(await endOf(settle(client.turn({ ...on('alice', 'desk'), text: 'Paris' })))).toMatchObject({
      taskId: asked.taskId,
      text: bookedReply('Paris'),
    });
    await Promise.all([client.close(), fresh.close()]);
  });

  it('an agent that answers fewer tasks per page than asked: the pages are followed to the running task', async () => {
    // Three quick turns while the slow one runs, on its thread: sent beside it, not after it.
    const client = replica({ secondMessage: 'parallel' });
    const mine = running(client.turn({ ...on('bob', 'pages'), text: 'slow', onLeave: 'detach' }));
    await mine.named;
    for (const word of ['one', 'two', 'three']) await settle(client.turn({ ...on('bob', 'pages'), text: word }));
    // One task per page, with the SDK's own cursor as the next page's token.
    editLists(proxy, onePerPage, Infinity);
    const other = replica();
    const { events, error } = await settle(other.resume(on('bob', 'pages')));
    expect(error).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: SLOW_REPLY });
    expect(proxy.count('list')).toBeGreaterThanOrEqual(4);
    mine.leave();
    await Promise.all([client.close(), other.close()]);
  });

  it("a ListTasks that takes 8 s delays a cold thread's first message by the lookup's bound only", async () => {
    proxy.plan({ on: 'list', fault: { type: 'hang', ms: 8_000 } });
    const cold = replica({ lookupTimeoutMs: 500 });
    const started = performance.now();
    const reply = await endOf(settle(cold.turn({ ...on('carol', 'cold'), text: 'hello' })));
    const took = performance.now() - started;
    expect(reply).toMatchObject({ outcome: 'completed', text: echoReply('hello') });
    expect(took).toBeLessThan(3_000);
    await cold.close();
  });
});

describe('replicas share nothing: a question asked through one replica, answered through another', () => {
  async function askThroughA(thread: string, b: ReturnType<typeof replica>) {
    // B served the thread before (its first message looked the thread up), then A asks.
    await settle(b.turn({ ...on('dave', thread), text: 'hello' }));
    const a = replica();
    const asked = await endOf(settle(a.turn({ ...on('dave', thread), text: 'input' })));
    expect(asked).toMatchObject({ outcome: 'input-required' });
    await a.close();
    return asked.taskId!;
  }

  it("with the default lookup (a thread's first message in a process), B does not look again: a new task (the documented cost)", async () => {
    const b = replica();
    const question = await askThroughA('default', b);
    const answered = await endOf(settle(b.turn({ ...on('dave', 'default'), text: 'Paris' })));
    expect(answered.taskId).not.toBe(question);
    await b.close();
  });

  it("with waitingTaskLookup: 'every-message', B finds the question and the answer continues its task", async () => {
    const b = replica({ waitingTaskLookup: 'every-message' });
    const question = await askThroughA('every', b);
    const answered = await endOf(settle(b.turn({ ...on('dave', 'every'), text: 'Paris' })));
    expect(answered).toMatchObject({ outcome: 'completed', taskId: question, text: bookedReply('Paris') });
    await b.close();
  });

  it('a caller that carries the task id (from the question’s end) continues it through any replica', async () => {
    const b = replica();
    const question = await askThroughA('carried', b);
    const answered = await endOf(settle(b.turn({ ...on('dave', 'carried'), text: 'Paris', taskId: question })));
    expect(answered).toMatchObject({ outcome: 'completed', taskId: question, text: bookedReply('Paris') });
    await b.close();
  });
});

describe('a turn that ends auth-required leaves its task for the thread’s next message', () => {
  it('its id is remembered, and the next message carries it', async () => {
    const client = replica({ authWaitMs: 200 });
    const signIn = await endOf(settle(client.turn({ ...on('erin', 'auth'), text: 'auth' })));
    expect(signIn).toMatchObject({ outcome: 'auth-required' });
    expect(client.thread(proxy.url('/'), 'erin', 'auth')?.interruptedTaskId).toBe(signIn.taskId);
    // Once the agent went on by itself (the sign-in happened out of band), the next message still names the task first.
    await new Promise((resolve) => setTimeout(resolve, TIMING.authResumeMs + 200));
    const before = sentTo(agent).length;
    await settle(client.turn({ ...on('erin', 'auth'), text: 'signed in' }));
    expect(sentTo(agent).slice(before)[0]?.taskId).toBe(signIn.taskId);
    await client.close();
  });
});
