/**
 * The gateway example with `--push`: two replicas behind Debian's haproxy follow their turns' tasks by
 * the agent's push notifications (the demo agent, @a2a-js/sdk 1.3's own sender, 50 ms away). A push
 * comes back through haproxy to the replica its path names (`/a2a/push/<name>`, `use-server`); with that
 * replica down, to the other, which checks it, answers 204 and shows it nowhere (unclaimed). A person
 * whose replica died mid-task reconnects and the other replica follows the task by push. Counted at the
 * agent: every request that reached it (no stream, no resubscribe), and its own record of the thread.
 *
 * Needs /usr/sbin/haproxy (npm test installs it: scripts/ensure-debian.sh) and the built library.
 */
import { describe, expect, it } from 'vitest';
import { followTurn } from '../../examples/gateway/client-follow.mjs';
import { deriveContextId, pushCredentials } from '../../src/index.js';
import { statusPush } from '../push/receiver-kit.js';
import { agentTasks, expectDeliveredOnce } from './agent-truth.js';
import { rigOf } from './rig.js';

const SECRET = 'push-gateway-test-secret-not-for-production';
const USER = 'pia';
/** The JSON-RPC methods of the requests that left a replica for the agent, in order. */
const toAgent: string[] = [];
const gatewayLog: string[] = [];

const rig = rigOf('a4h-push-gateway-test-', SECRET, USER, {
  // Each word 120 ms apart: a reply of a few seconds, pushed word by word.
  agent: { chunkDelayMs: 120 },
  rttMs: 50,
  methods: toAgent,
  cluster: { replicas: 2, push: true, log: (line) => gatewayLog.push(line) },
});

const contextOf = (thread: string) => deriveContextId(SECRET, USER, thread);

interface ReplicaHealth {
  replica: string;
  push: { outcomes: Partial<Record<string, number>>; following: number };
}

/** A replica's own `/healthz`, asked on its port (not through haproxy): its receiver's counters. */
async function healthOf(name: string): Promise<ReplicaHealth> {
  const response = await fetch(`http://127.0.0.1:${rig.cluster.replica(name).port}/healthz`);
  return (await response.json()) as ReplicaHealth;
}
const taken = async (name: string) => (await healthOf(name)).push.outcomes.taken ?? 0;
const unclaimed = async (name: string) => (await healthOf(name)).push.outcomes.unclaimed ?? 0;
const otherThan = (name: string) => rig.cluster.names.find((n) => n !== name)!;

/** A push for `thread` as the agent would post it, with the credential a replica would have given. */
async function postPush(path: string, thread: string, taskId: string, token?: string): Promise<number> {
  const contextId = await contextOf(thread);
  const credential = token ?? (await pushCredentials({ secret: SECRET }).issue(contextId));
  const response = await fetch(new URL(path.slice(1), rig.cluster.url), {
    method: 'POST',
    headers: { 'content-type': 'application/a2a+json', authorization: `Bearer ${credential}` },
    body: statusPush(taskId, contextId),
  });
  await response.arrayBuffer();
  return response.status;
}

describe('the gateway following tasks by push, two replicas behind haproxy', { timeout: 60_000 }, () => {
  it('a long task completes by push: one SendMessage, no stream or resubscribe at the agent, every push to the replica that streams it', async () => {
    const before = toAgent.length;
    const takenBefore = Object.fromEntries(await Promise.all(rig.cluster.names.map(async (n) => [n, await taken(n)] as const)));
    const followed = await followTurn({ gateway: rig.cluster.url, token: rig.token, thread: 'pushed', text: 'tell me a long story' });
    await expectDeliveredOnce(rig.agent.url, await contextOf('pushed'), followed);
    expect(followed.replicas).toHaveLength(1);
    const [serving] = followed.replicas as [string];
    const methods = toAgent.slice(before);
    expect(methods.filter((m) => /Stream|Subscribe/.test(m))).toEqual([]);
    expect(methods.filter((m) => m === 'SendMessage')).toHaveLength(1);
    // The agent pushed each word (and the task's states) to the serving replica, through haproxy; none to the other.
    const words = followed.reply.split(' ').length;
    expect((await taken(serving)) - takenBefore[serving]!).toBeGreaterThanOrEqual(words);
    expect((await taken(otherThan(serving))) - takenBefore[otherThan(serving)]!).toBe(0);
    expect((await healthOf(serving)).push.following).toBe(0);
  });

  it('a reply that repeats its words: every pushed chunk shown once, in order, none dropped as a duplicate, nothing replaced at the end', async () => {
    await followTurn({ gateway: rig.cluster.url, token: rig.token, thread: 'repeats', text: 'say it twice' });
    const texts: string[] = [];
    const followed = await followTurn({
      gateway: rig.cluster.url,
      token: rig.token,
      thread: 'repeats',
      text: 'say it twice',
      onEvent: (event) => (event.type === 'text' ? texts.push(`${event.replace ? 'replace: ' : ''}${String(event.text)}`) : undefined),
    });
    // Turn 2 quotes the first message and the second, the same words: the same chunk bytes pushed twice.
    const words = followed.end!.text.split(' ');
    expect(new Set(words).size).toBeLessThan(words.length);
    expect(texts.filter((text) => text.startsWith('replace: '))).toEqual([]);
    expect(texts.join('')).toBe(followed.end!.text);
    const tasks = await agentTasks(rig.agent.url, await contextOf('repeats'));
    expect(tasks.find((task) => task.id === followed.end!.taskId)?.reply).toBe(texts.join(''));
  });

  it('haproxy routes /a2a/push/<name> to that replica; with it down, to the other, which answers 204 and shows it nowhere', async () => {
    const [a, b] = rig.cluster.names as [string, string];
    const [aBefore, bBefore] = [await unclaimed(a), await unclaimed(b)];
    // No turn follows the thread: the push is checked, taken and unclaimed, at the replica its path names.
    expect(await postPush(`/a2a/push/${a}`, 'nobody-follows', 'task-1')).toBe(204);
    expect([(await unclaimed(a)) - aBefore, (await unclaimed(b)) - bBefore]).toEqual([1, 0]);
    // A forged credential is refused through haproxy as it is at a replica.
    expect(await postPush(`/a2a/push/${a}`, 'nobody-follows', 'task-2', 'a4hp1.forged.0.AAAA')).toBe(401);
    await rig.cluster.kill(a);
    try {
      // Down (its port refuses at once, before haproxy's check marks it down): the other replica takes it.
      for (let i = 0; i < 3; i++) expect(await postPush(`/a2a/push/${a}`, 'nobody-follows', `task-down-${i}`)).toBe(204);
      expect((await unclaimed(b)) - bBefore).toBe(3);
    } finally {
      await rig.cluster.restart(a);
    }
    expect(gatewayLog.some((line) => line.includes('push unclaimed (3 so far)'))).toBe(true);
  });

  it('kill -9 of the replica mid-task: the person resumes on the other, which follows the task by push; nothing lost or doubled', async () => {
    const before = toAgent.length;
    let killing: Promise<void> | undefined;
    let killed = '';
    const followed = await followTurn({
      gateway: rig.cluster.url,
      token: rig.token,
      thread: 'killed',
      text: 'tell me a long story again',
      onStream: (replica) => (killed ||= replica),
      onEvent: (event) => {
        if (event.type === 'text' && killing === undefined) killing = rig.cluster.kill(killed);
      },
    });
    await killing;
    const survivor = otherThan(killed);
    try {
      await expectDeliveredOnce(rig.agent.url, await contextOf('killed'), followed);
      expect(followed.replicas).toEqual([killed, survivor]);
      expect(followed.recoveries).toHaveLength(1);
      const methods = toAgent.slice(before);
      expect(methods.filter((m) => /Stream|Subscribe/.test(m))).toEqual([]);
      // The message once; the survivor set its own receiver on the task (replacing the dead one's) when it resumed.
      expect(methods.filter((m) => m === 'SendMessage')).toHaveLength(1);
      expect(methods.filter((m) => m === 'CreateTaskPushNotificationConfig')).toHaveLength(1);
      expect((await healthOf(survivor)).push.following).toBe(0);
    } finally {
      await rig.cluster.restart(killed);
    }
  });
});
