/**
 * The gateway example (examples/gateway) as it runs in production: three replica processes sharing
 * only the identity secret, behind Debian's haproxy, in front of the demo agent. Replicas are
 * killed (SIGKILL, a crash) and restarted (SIGTERM, a deploy) while replies stream; the client
 * (examples/gateway/client.mjs) reconnects with Last-Event-ID through haproxy. The agent's own
 * record (its tasks, read with the raw SDK) says whether anything was lost, doubled or cancelled.
 *
 * Needs /usr/sbin/haproxy (npm test installs it: scripts/ensure-debian.sh) and the built library
 * (the replicas import dist/).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoAgent, type DemoAgent } from '../../demo/agent.js';
import { followTurn, type Followed } from '../../examples/gateway/client.mjs';
import { startCluster, type Cluster } from '../../examples/gateway/cluster.mjs';
import { HAPROXY } from '../../examples/gateway/haproxy.mjs';
import { HANDLE } from '../../examples/gateway/gateway.mjs';
import { deriveContextId } from '../../src/index.js';
import { eventually } from '../eventually.js';
import { agentTasks } from './agent-truth.js';

const SECRET = 'replicas-test-secret-not-for-production';
let dir = '';
let agent: DemoAgent;
let cluster: Cluster;
/** The demo agent's log: `<contextId prefix> turn N (slow)`, `… canceled`. */
const agentLog: string[] = [];
const gatewayLog: string[] = [];

const contextOf = (thread: string) => deriveContextId(SECRET, HANDLE, thread);
const prefixOf = async (thread: string) => (await contextOf(thread)).slice(0, 8);
/** The agent's log lines about `thread`. */
const linesOf = async (thread: string) => {
  const prefix = await prefixOf(thread);
  return agentLog.filter((line) => line.startsWith(prefix));
};

/** The client's reply is whole and once: it is the end's text and the agent's own record of the task. */
async function expectWholeOnce(thread: string, followed: Followed): Promise<void> {
  expect(followed.error).toBeUndefined();
  expect(followed.end).toMatchObject({ outcome: 'completed' });
  expect(followed.reply).toBe(followed.end!.text);
  const tasks = await agentTasks(agent.url, await contextOf(thread));
  expect(tasks.map((t) => ({ id: t.id, completed: t.completed }))).toEqual([{ id: followed.end!.taskId, completed: true }]);
  expect(tasks[0]!.reply).toBe(followed.reply);
}

beforeAll(async () => {
  if (!existsSync(HAPROXY)) throw new Error(`${HAPROXY} is missing: run sh scripts/ensure-debian.sh (npm test does)`);
  if (!existsSync(new URL('../../dist/node/index.js', import.meta.url))) throw new Error('run npm run build first');
  dir = await mkdtemp(join(tmpdir(), 'a4h-replicas-test-'));
  agent = await startDemoAgent({ port: 0, memoryFile: join(dir, 'memory.json'), log: (line) => agentLog.push(line) });
  cluster = await startCluster({ agent: agent.url, secret: SECRET, log: (line) => gatewayLog.push(line) });
}, 30_000);

afterAll(async () => {
  await cluster?.stop();
  await agent?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the gateway behind haproxy: three replicas, the secret shared and nothing else', { timeout: 60_000 }, () => {
  it('haproxy routes with no stickiness: consecutive requests reach every replica', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const health = (await (await fetch(new URL('healthz', cluster.url))).json()) as { replica: string };
      seen.add(health.replica);
    }
    expect([...seen].sort()).toEqual(cluster.names);
  });

  it('kill -9 the replica streaming a reply: the client reconnects to another and gets exactly the rest; one task, completed', async () => {
    const thread = 'killed-mid-reply';
    let first: string | undefined;
    let killed: Promise<void> | undefined;
    let atKill = '';
    let reply = '';
    const followed = await followTurn({
      gateway: cluster.url,
      thread,
      text: 'slow tell me about replicas',
      onStream: (replica) => {
        first ??= replica;
      },
      onEvent: (event) => {
        if (event.type !== 'text') return;
        reply = event.replace ? String(event.text) : reply + String(event.text);
        if (killed === undefined && reply.length > 40) {
          atKill = reply;
          killed = cluster.kill(first!);
        }
      },
    });
    await killed;
    expect(atKill.length).toBeGreaterThan(40);
    expect(followed.replicas).toHaveLength(2);
    expect(followed.replicas[1]).not.toBe(first);
    expect(followed.reconnects).toBe(1);
    expect(followed.reply.startsWith(atKill)).toBe(true);
    await expectWholeOnce(thread, followed);
    expect(await linesOf(thread)).toEqual([expect.stringMatching(/turn 1 \(slow\)$/)]);
    await cluster.restart(first!);
  });

  it("the agent's question, asked through a replica that was then killed, is answered through another: the same task continues", async () => {
    const thread = 'question-across-replicas';
    let asker: string | undefined;
    const asked = await followTurn({
      gateway: cluster.url,
      thread,
      text: 'ask which city',
      onStream: (replica) => {
        asker ??= replica;
      },
    });
    expect(asked.end).toMatchObject({ outcome: 'input-required', text: expect.stringContaining('which city?') });
    await cluster.kill(asker!);
    const answered = await followTurn({ gateway: cluster.url, thread, text: 'Lisbon' });
    expect(answered.replicas[0]).not.toBe(asker);
    expect(answered.end).toMatchObject({ outcome: 'completed', taskId: asked.end!.taskId, text: expect.stringContaining('“Lisbon”') });
    await expectWholeOnce(thread, answered);
    expect(await linesOf(thread)).toEqual([expect.stringMatching(/\(ask\)$/), expect.stringMatching(/\(answer\)$/)]);
    await cluster.restart(asker!);
  });

  it('a Stop button through any replica cancels the task the stream on another replica follows', async () => {
    const thread = 'stopped-through-another';
    let cancelled: Promise<Response> | undefined;
    const followed = await followTurn({
      gateway: cluster.url,
      thread,
      text: 'slow stop me',
      onEvent: (event, id) => {
        if (event.type !== 'text' || cancelled !== undefined) return;
        const taskId = id!.slice(id!.indexOf('.') + 1);
        cancelled = fetch(new URL(`threads/${thread}/cancel`, cluster.url), { method: 'POST', body: JSON.stringify({ taskId }) });
      },
    });
    expect((await cancelled!).status).toBe(202);
    expect(followed.end).toMatchObject({ outcome: 'canceled' });
    await eventually(() => agentLog.some((line) => line.endsWith('canceled')), 5_000);
    const tasks = await agentTasks(agent.url, await contextOf(thread));
    expect(tasks.map((t) => t.state)).toEqual(['TASK_STATE_CANCELED']);
  });

  it('a rolling restart of every replica while 100 replies stream: none lost, none doubled, none cancelled', async () => {
    const threads = Array.from({ length: 100 }, (_, i) => `rolling-${i}`);
    const started = new Set<string>();
    const turns = threads.map((thread) =>
      followTurn({
        gateway: cluster.url,
        thread,
        text: `slow turn of ${thread}`,
        onEvent: (event) => {
          if (event.type === 'text') started.add(thread);
        },
      }),
    );
    await eventually(() => started.size === threads.length, 15_000);
    const cancelledBefore = agentLog.filter((line) => line.endsWith('canceled')).length;
    for (const name of cluster.names) await cluster.restart(name);
    const followed = await Promise.all(turns);
    for (const [i, thread] of threads.entries()) await expectWholeOnce(thread, followed[i]!);
    // Every replica was restarted while every reply streamed: every client lost its stream once at least.
    expect(followed.filter((f) => f.reconnects === 0)).toEqual([]);
    expect(agentLog.filter((line) => line.endsWith('canceled')).length).toBe(cancelledBefore);
  });
});
