/**
 * The gateway example (examples/gateway) as it runs in production: three replica processes sharing
 * only the identity secret and the identity provider's keys, behind Debian's haproxy, in front of
 * the demo agent 150 ms away (a delay in front of it). Replicas are killed (SIGKILL, a crash) right
 * after a POST's 200 or before it, and restarted (SIGTERM, a deploy) right after 100 messages; a
 * question is answered through round robin. The agent's own record (its tasks and the messages
 * each carries, read with the raw SDK) says whether anything was lost, doubled or cancelled.
 *
 * Needs /usr/sbin/haproxy (npm test installs it: scripts/ensure-debian.sh) and the built library
 * (the replicas import dist/).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { followTurn } from '../../examples/gateway/client-follow.mjs';
import { deriveContextId, parsePosition } from '../../src/index.js';
import { eventually } from '../eventually.js';
import { agentTasks, expectDeliveredOnce } from './agent-truth.js';
import { rigOf } from './rig.js';

const SECRET = 'replicas-test-secret-not-for-production';
const USER = 'ada';
/** The demo agent's log: `<contextId prefix> turn N (slow)`, `… canceled`. */
const agentLog: string[] = [];
const gatewayLog: string[] = [];
/** The bodies of the requests on their way to the agent (they left a replica). */
const toAgent: string[] = [];

const contextOf = (thread: string) => deriveContextId(SECRET, USER, thread);
const cancelled = () => agentLog.filter((line) => line.endsWith('canceled')).length;
const follow = (thread: string, more: Partial<Parameters<typeof followTurn>[0]> = {}) =>
  followTurn({ gateway: rig.cluster.url, token: rig.token, thread, ...more });

const rig = rigOf('a4h-replicas-test-', SECRET, USER, {
  agent: { log: (line) => agentLog.push(line) },
  rttMs: 150,
  onRequest: (body) => toAgent.push(body),
  cluster: { log: (line) => gatewayLog.push(line) },
});

describe('the gateway behind haproxy, the agent 150 ms away', { timeout: 60_000 }, () => {
  it('haproxy routes with no stickiness: consecutive requests reach every replica', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const health = (await (await fetch(new URL('healthz', rig.cluster.url))).json()) as { replica: string };
      seen.add(health.replica);
    }
    expect([...seen].sort()).toEqual(rig.cluster.names);
  });

  it('kill -9 of the replica that took each POST: right after its 200, before it sent the message, with the message on its way: none lost or doubled', async () => {
    for (const [i, when] of (['after the 200', 'before the send', 'message on its way'] as const).entries()) {
      const thread = `killed-${i}`;
      const context = await contextOf(thread);
      let killed: string | undefined;
      let killing: Promise<void> | undefined;
      const kill = (name: string) => {
        killed ??= name;
        killing ??= rig.cluster.kill(name);
      };
      const [logged, sent] = [gatewayLog.length, toAgent.length];
      const tookIt = () => gatewayLog.slice(logged).find((line) => line.includes(`"${thread}": message`));
      const onItsWay = () =>
        toAgent.slice(sent).some((body) => /SendStreamingMessage|message\/stream/.test(body) && body.includes(context));
      // Before the 200: as soon as the replica logs the message, or as soon as the message left it for the agent.
      const watch =
        when === 'after the 200'
          ? undefined
          : eventually(() => tookIt() !== undefined && (when === 'before the send' || onItsWay()), 10_000).then(() =>
              kill(/^gateway (\w+):/.exec(tookIt()!)![1]!),
            );
      const followed = await follow(thread, {
        text: `hello from ${thread}`,
        onStream: (replica) => (when === 'after the 200' ? kill(replica) : undefined),
      });
      await watch;
      await killing;
      expect(killed).toBeDefined();
      expect(followed.reconnects).toBeGreaterThanOrEqual(1);
      await expectDeliveredOnce(rig.agent.url, await contextOf(thread), followed);
      // The message the agent got was followed, not sent again; the one it never got was sent again.
      if (when === 'message on its way') expect(followed.resent).toBe(0);
      await rig.cluster.restart(killed!);
    }
  });

  it('chat, chat, ask, answer through round robin: the answer carries the question’s task id, and any replica continues it', async () => {
    const thread = 'round-robin';
    const served = new Set<string>();
    // Chat until every replica served the thread (each remembers it looked for a waiting task), then ask.
    for (let i = 0; served.size < rig.cluster.names.length && i < 9; i++)
      served.add((await follow(thread, { text: `hello ${i}` })).replicas[0]!);
    const asked = await follow(thread, { text: 'ask which city' });
    expect(asked.end).toMatchObject({ outcome: 'input-required', text: expect.stringContaining('which city?') });
    // The balancer sends the answer to a replica that served the thread but did not see the question.
    const other = rig.cluster.names.find((name) => name !== asked.replicas[0])!;
    const direct = `http://127.0.0.1:${rig.cluster.replica(other).port}/`;
    const answered = await followTurn({ gateway: direct, token: rig.token, thread, text: 'Lisbon', taskId: asked.end!.taskId! });
    expect(answered.replicas).toEqual([other]);
    expect(answered.end).toMatchObject({ outcome: 'completed', taskId: asked.end!.taskId, text: expect.stringContaining('“Lisbon”') });
    const tasks = await agentTasks(rig.agent.url, await contextOf(thread));
    const question = tasks.find((task) => task.id === asked.end!.taskId)!;
    expect(question).toMatchObject({ state: 'TASK_STATE_COMPLETED', messageIds: [asked.messageId, answered.messageId] });
    expect(tasks.filter((task) => task.state !== 'TASK_STATE_COMPLETED')).toEqual([]);
  });

  it('a Stop button through any replica cancels the task the stream on another replica follows', async () => {
    const thread = 'stopped-through-another';
    let stopped: Promise<Response> | undefined;
    const followed = await follow(thread, {
      text: 'slow stop me',
      onEvent: (event, id) => {
        if (event.type !== 'text' || stopped !== undefined) return;
        const taskId = parsePosition(id!)!.taskId;
        const init = { method: 'POST', headers: { authorization: `Bearer ${rig.token}` }, body: JSON.stringify({ taskId }) };
        stopped = fetch(new URL(`threads/${thread}/cancel`, rig.cluster.url), init);
      },
    });
    expect((await stopped!).status).toBe(202);
    expect(followed.end).toMatchObject({ outcome: 'canceled' });
    const tasks = await agentTasks(rig.agent.url, await contextOf(thread));
    expect(tasks.map((t) => t.state)).toEqual(['TASK_STATE_CANCELED']);
  });

  it('a rolling restart (SIGTERM) started 300 ms after 100 new messages: none lost, none doubled, none cancelled, every reply whole', async () => {
    const threads = Array.from({ length: 100 }, (_, i) => `rolling-${i}`);
    const cancelledBefore = cancelled();
    const turns = threads.map((thread) => follow(thread, { text: `slow turn of ${thread}` }));
    await sleep(300);
    for (const name of rig.cluster.names) await rig.cluster.restart(name);
    const followed = await Promise.all(turns);
    await Promise.all(threads.map(async (thread, i) => expectDeliveredOnce(rig.agent.url, await contextOf(thread), followed[i]!)));
    // Every replica was restarted while every reply streamed: every client lost its stream once at least.
    expect(followed.filter((f) => f.reconnects === 0)).toEqual([]);
    expect(cancelled()).toBe(cancelledBefore);
  });
});
