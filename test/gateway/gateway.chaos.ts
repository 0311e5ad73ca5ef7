/**
 * The gateway's chaos run (`npm run test:chaos`, a few minutes; not part of `npm test`): three
 * replicas behind haproxy, the demo agent 150 ms away, and in turn kill -9 of a random replica every
 * 2 s under continuous traffic, a SIGTERM rolling restart started 300 ms after 100 new messages,
 * haproxy down for 6 s mid-reply, a replica frozen (SIGSTOP) for 20 s, and twenty clients that never
 * read a 4 MB reply, twice. Counted against the agent's own record: messages, lost, doubled,
 * orphaned; the client's recovery after each broken stream (p50, p99). The figures go to the console
 * and to test-output/gateway-chaos.json.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import type { Host } from '../../fixtures/http-host.js';
import { followTurn, type Followed } from '../../examples/gateway/client-follow.mjs';
import { freePort, startReplica } from '../../examples/gateway/cluster.mjs';
import { FAIR_USE_OFF } from '../../examples/gateway/fair-use.mjs';
import { deriveContextId } from '../../src/index.js';
import { eventually } from '../eventually.js';
import { agentTasks, ledger } from './agent-truth.js';
import { postUnframed, startBigAgent } from './big-agent.js';
import { killRandomly } from './killer.js';
import { useGatewayRig } from './rig.js';
import { liveMemoryMb } from './memory-probe.js';

const SECRET = 'chaos-secret-not-for-production';
const USER = 'chaos';
/** Every turn of the run, by phase and thread, in order. */
const turns: Array<{ phase: string; thread: string; followed: Followed }> = [];
const report: Record<string, unknown> = {};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const follow = async (phase: string, thread: string, text: string, more: Partial<Parameters<typeof followTurn>[0]> = {}) => {
  const followed = await followTurn({ gateway: rig.cluster.url, token: rig.token, thread, text, ...more });
  turns.push({ phase, thread, followed });
  return followed;
};

/** The phase's figures against the agent's record. */
async function count(phase: string): Promise<Record<string, number>> {
  const mine = turns.filter((t) => t.phase === phase);
  const threads = [...new Set(mine.map((t) => t.thread))];
  let lost = 0;
  let doubled = 0;
  let orphaned = 0;
  let truncated = 0;
  for (const thread of threads) {
    const tasks = await agentTasks(rig.agent.url, await deriveContextId(SECRET, USER, thread));
    const sent = mine.filter((t) => t.thread === thread);
    const book = ledger(
      sent.map((t) => t.followed.messageId!),
      tasks,
    );
    lost += book.lost.length;
    doubled += book.doubled.length;
    orphaned += book.orphaned.length;
    for (const { followed } of sent) {
      const task = tasks.find((t) => t.id === followed.end?.taskId);
      if (followed.end?.outcome !== 'completed' || task?.reply !== followed.reply || followed.reply !== followed.end.text) truncated++;
    }
  }
  const recoveries = mine.flatMap((t) => t.followed.recoveries);
  const figures = {
    messages: mine.length,
    lost,
    doubled,
    orphaned,
    truncated,
    resent: mine.reduce((n, t) => n + t.followed.resent, 0),
    broken: recoveries.length,
    recoveryP50: percentile(recoveries, 50),
    recoveryP99: percentile(recoveries, 99),
  };
  report[phase] = figures;
  console.log(phase, JSON.stringify(figures));
  return figures;
}

const expectClean = (figures: Record<string, number>) => expect(figures).toMatchObject({ lost: 0, doubled: 0, orphaned: 0, truncated: 0 });

const rig = useGatewayRig(
  { prefix: 'a4h-gateway-chaos-', secret: SECRET, user: USER, tokenTtlSeconds: 3600, rttMs: 150, needs: { haproxy: false, build: false } },
  60_000,
);

afterAll(async () => {
  const all = turns.flatMap((t) => t.followed.recoveries);
  report.total = { messages: turns.length, recoveryP50: percentile(all, 50), recoveryP99: percentile(all, 99) };
  console.log('total', JSON.stringify(report.total));
  await mkdir('test-output', { recursive: true });
  await writeFile(join('test-output', 'gateway-chaos.json'), `${JSON.stringify(report, null, 2)}\n`);
});

describe('the gateway under chaos', () => {
  it('kill -9 of a random replica every 2 s for 60 s under 20 clients sending back to back', { timeout: 180_000 }, async () => {
    const until = Date.now() + 60_000;
    const loops = Array.from({ length: 20 }, async (_, i) => {
      for (let n = 0; Date.now() < until; n++) await follow('kill', `kill-${i}`, `message ${n} of client ${i}`);
    });
    const killer = killRandomly(rig.cluster, 2_000, until);
    const [kills] = await Promise.all([killer, ...loops]);
    const figures = await count('kill');
    report.kills = kills;
    expectClean(figures);
  });

  it('a SIGTERM rolling restart started 300 ms after 100 new messages', { timeout: 120_000 }, async () => {
    const sent = Array.from({ length: 100 }, (_, i) => follow('rolling', `rolling-${i}`, `slow rolling ${i}`));
    await sleep(300);
    for (const name of rig.cluster.names) await rig.cluster.restart(name);
    await Promise.all(sent);
    expectClean(await count('rolling'));
  });

  it('haproxy down for 6 s while 50 replies stream', { timeout: 120_000 }, async () => {
    const streaming = new Set<number>();
    const sent = Array.from({ length: 50 }, (_, i) =>
      follow('balancer', `balancer-${i}`, `tell me something, ${i}`, {
        onEvent: (e) => (e.type === 'text' ? streaming.add(i) : undefined),
      }),
    );
    await eventually(() => streaming.size === 50, 20_000);
    await rig.cluster.stopBalancer();
    await sleep(6_000);
    await rig.cluster.startBalancer();
    await Promise.all(sent);
    expectClean(await count('balancer'));
  });

  it('a replica frozen (SIGSTOP) for 20 s while 15 slow replies stream', { timeout: 120_000 }, async () => {
    const on = new Map<number, string>();
    const moved = new Map<number, number>();
    let frozen = '';
    const sent = Array.from({ length: 15 }, (_, i) =>
      follow('freeze', `freeze-${i}`, `slow frozen ${i}`, {
        onStream: (replica) => on.set(i, replica),
        onEvent: () => (frozen !== '' && on.get(i) !== frozen && !moved.has(i) ? void moved.set(i, Date.now()) : undefined),
      }),
    );
    await eventually(() => on.size === 15, 20_000);
    await sleep(1_000);
    frozen = on.get(0)!;
    const stranded = [...on].filter(([, replica]) => replica === frozen).map(([i]) => i);
    const at = Date.now();
    rig.cluster.replica(frozen).freeze();
    await sleep(20_000);
    rig.cluster.replica(frozen).thaw();
    await Promise.all(sent);
    const waits = stranded.map((i) => (moved.get(i) ?? Infinity) - at);
    const figures = await count('freeze');
    report.freezeMovedOnMs = { stranded: stranded.length, max: Math.max(...waits) };
    console.log('freeze moved on', JSON.stringify(report.freezeMovedOnMs));
    expectClean(figures);
    expect(Math.max(...waits)).toBeLessThan(5_000);
  });

  it('twenty clients that never read a 4 MB reply, twice: the replica lives and keeps nothing of them', { timeout: 600_000 }, async () => {
    const big: Host = await startBigAgent();
    const log: string[] = [];
    // The replica with its inspector open, to measure what it holds after a full GC.
    const inspect = await freePort();
    const options = process.env.NODE_OPTIONS;
    process.env.NODE_OPTIONS = `${options ?? ''} --inspect=127.0.0.1:${inspect}`;
    const started = startReplica({
      agent: big.agent.url('/'),
      port: await freePort(),
      name: 'S',
      secret: SECRET,
      auth: rig.auth,
      fairUse: FAIR_USE_OFF, // the clients are one user
      log: (l) => log.push(l),
    });
    if (options === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = options;
    const replica = await started;
    const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${replica.pid}/status`, 'utf8'))![1]) / 1024;
    try {
      // One reply read whole first: what a working replica holds is the baseline.
      await followTurn({ gateway: `http://127.0.0.1:${replica.port}/`, token: rig.token, thread: 'reads', text: 'big' });
      const before = await liveMemoryMb(inspect);
      const sockets: Socket[] = [];
      const after: Array<{ heapUsed: number; external: number }> = [];
      let peak = rss();
      for (const round of [1, 2]) {
        const threads = Array.from({ length: 20 }, (_, i) => `never-reads-${round}-${i}`);
        for (const thread of threads) sockets.push(postUnframed(replica.port, thread, rig.token).pause());
        // Their turns finish at the agent (the replica went on reading them), then three heartbeats and more.
        const tasks = async (t: string) => agentTasks(big.agent.url('/'), await deriveContextId(SECRET, USER, t), false);
        const done = async () =>
          (await Promise.all(threads.map(tasks)).catch(() => [])).flat().filter((task) => task.completed).length === threads.length;
        for (let waited = 0; !(await done()) && waited < 240; waited++) {
          peak = Math.max(peak, rss());
          await sleep(500);
        }
        for (let i = 0; i < 16; i++, await sleep(1_000)) peak = Math.max(peak, rss());
        after.push(await liveMemoryMb(inspect));
      }
      const dropped = log.filter((line) => line.includes('dropped a client')).length;
      for (const socket of sockets) socket.destroy();
      report.neverRead = { clients: 40, dropped, liveBeforeMb: before, liveAfterRoundsMb: after, rssPeakMb: Math.round(peak) };
      console.log('never read', JSON.stringify(report.neverRead));
      expect((await fetch(`http://127.0.0.1:${replica.port}/healthz`)).status).toBe(200);
      expect(dropped).toBe(40);
      // Bounded while they last (twenty 4 MB turns at once), and nothing of them kept after: twenty unread
      // replies held would be 80 MB and more each round.
      expect(peak).toBeLessThan(512);
      for (const live of after) expect(live.heapUsed + live.external - (before.heapUsed + before.external)).toBeLessThan(16);
    } finally {
      await replica.kill();
      await big.agent.close();
    }
  });
});
