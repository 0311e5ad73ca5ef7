/**
 * Outages and freezes of the gateway example behind haproxy, the demo agent 150 ms away: haproxy
 * down for 6 s in the middle of 50 replies (the agent finishes most of them meanwhile), a replica
 * frozen (SIGSTOP) while it streams replies, and one frozen right after it took a message (thawed
 * after its client asked another replica for the message: sent late, it would be doubled). Counted
 * against the agent's own record: every message delivered once, every reply whole; and the frozen
 * replica's clients move on within seconds.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { followTurn, type Followed } from '../../examples/gateway/client-follow.mjs';
import { deriveContextId } from '../../src/index.js';
import { eventually } from '../eventually.js';
import { agentTasks, ledger } from './agent-truth.js';
import { rigOf } from './rig.js';

const SECRET = 'outages-test-secret-not-for-production';
const USER = 'grace';
const gatewayLog: string[] = [];

/** Every message delivered once, every reply whole and once, against the agent's record. */
async function expectAllDelivered(threads: readonly string[], followed: readonly Followed[]): Promise<void> {
  await Promise.all(
    threads.map(async (thread, i) => {
      const turn = followed[i]!;
      expect(turn.end).toMatchObject({ outcome: 'completed' });
      expect(turn.reply).toBe(turn.end!.text);
      const tasks = await agentTasks(rig.agent.url, await deriveContextId(SECRET, USER, thread));
      expect(ledger([turn.messageId!], tasks)).toEqual({ messages: 1, lost: [], doubled: [], orphaned: [] });
      expect(tasks[0]!.reply).toBe(turn.reply);
    }),
  );
}

const rig = rigOf('a4h-outages-test-', SECRET, USER, {
  // Replies of about 3 s: an outage of 6 s outlasts most of them.
  agent: { chunkDelayMs: 120 },
  rttMs: 150,
  cluster: { log: (line) => gatewayLog.push(line) },
  needs: { build: false },
});

describe('outages and freezes', { timeout: 60_000 }, () => {
  it('haproxy down for 6 s mid-reply: every one of 50 clients finishes its reply, whole, its message once', async () => {
    const threads = Array.from({ length: 50 }, (_, i) => `outage-${i}`);
    const streaming = new Set<string>();
    const turns = threads.map((thread) =>
      followTurn({
        gateway: rig.cluster.url,
        token: rig.token,
        thread,
        text: `hello from ${thread}`,
        onEvent: (event) => (event.type === 'text' ? streaming.add(thread) : undefined),
      }),
    );
    await eventually(() => streaming.size === threads.length, 15_000);
    await rig.cluster.stopBalancer();
    await sleep(6_000);
    await rig.cluster.startBalancer();
    const followed = await Promise.all(turns);
    await expectAllDelivered(threads, followed);
    expect(followed.filter((f) => f.reconnects === 0)).toEqual([]);
  });

  it('a replica frozen (SIGSTOP) mid-reply: its clients move on within a few seconds; thawed, it lives on', async () => {
    const threads = Array.from({ length: 9 }, (_, i) => `frozen-${i}`);
    /** Each client's replica now, and when it got an event from a replica other than the frozen one. */
    const on = new Map<string, string>();
    const movedAt = new Map<string, number>();
    let frozen = '';
    let frozenAt = 0;
    const turns = threads.map((thread) =>
      followTurn({
        gateway: rig.cluster.url,
        token: rig.token,
        thread,
        text: `tell me a story, ${thread}`,
        onStream: (replica) => on.set(thread, replica),
        onEvent: () => {
          if (frozen !== '' && on.get(thread) !== frozen && !movedAt.has(thread)) movedAt.set(thread, Date.now());
        },
      }),
    );
    await eventually(() => on.size === threads.length, 15_000);
    await sleep(300);
    frozen = [...on.values()][0]!;
    const stranded = [...on].filter(([, replica]) => replica === frozen).map(([thread]) => thread);
    frozenAt = Date.now();
    rig.cluster.replica(frozen).freeze();
    try {
      await eventually(() => stranded.every((thread) => movedAt.has(thread)), 10_000);
    } finally {
      // The chaos run keeps it frozen for 20 s; here, as long as its clients took to move on.
      rig.cluster.replica(frozen).thaw();
    }
    const waits = stranded.map((thread) => movedAt.get(thread)! - frozenAt);
    expect(Math.max(...waits)).toBeLessThan(5_000);
    const followed = await Promise.all(turns);
    await expectAllDelivered(threads, followed);
    // Thawed, it finds its streams gone, writes nothing after their end, and serves again.
    const replica = rig.cluster.replica(frozen);
    expect((await fetch(new URL('healthz', `http://127.0.0.1:${replica.port}/`))).status).toBe(200);
    expect(await Promise.race([replica.exited.then(() => 'exited'), sleep(500).then(() => 'alive')])).toBe('alive');
  });

  it('a replica frozen right after it took a message: the client asks another for it, and the message reaches the agent once', async () => {
    const thread = 'frozen-with-a-message';
    const logged = gatewayLog.length;
    const took = () => gatewayLog.slice(logged).find((line) => line.includes(`"${thread}": message`));
    let frozen = '';
    const watch = eventually(() => took() !== undefined, 10_000).then(() => {
      frozen = /^gateway (\w+):/.exec(took()!)![1]!;
      rig.cluster.replica(frozen).freeze();
    });
    const followed = await followTurn({ gateway: rig.cluster.url, token: rig.token, thread, text: `hello from ${thread}` });
    await watch;
    // Thawed, it finds its client gone: whatever it had of the message, it must not send it now.
    rig.cluster.replica(frozen).thaw();
    await sleep(1_000);
    expect(followed.replicas).not.toContain(frozen);
    await expectAllDelivered([thread], [followed]);
  });
});
