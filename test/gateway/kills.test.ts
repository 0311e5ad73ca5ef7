/**
 * kill -9 of a random replica every second, three replicas behind Debian's haproxy, in front of an
 * agent that takes each message 0–1.5 s at random before it has it (the demo agent behind a proxy
 * 50 ms away that holds each message that long, as a model call before the agent stores its task
 * would), while its `ListTasks` answers at once. Issue 46 found a message on its way asked for
 * before the agent had it, answered `not-received`, and sent again (7 of 319 doubled with 0–1 s).
 * Counted against the agent's own record (its tasks and the messages each carries).
 *
 * Needs /usr/sbin/haproxy (npm test installs it: scripts/ensure-debian.sh) and the built library.
 */
import { describe, expect, it } from 'vitest';
import { followTurn, type Followed } from '../../examples/gateway/client-follow.mjs';
import { deriveContextId } from '../../src/index.js';
import { agentTasks, ledger } from './agent-truth.js';
import { useGatewayRig } from './rig.js';
import { killRandomly } from './killer.js';

const SECRET = 'kills-test-secret-not-for-production';
const USER = 'kim';
const CLIENTS = 12;
const RUN_MS = 12_000;
const sends = (body: string) => (/"method":\s*"(SendMessage|SendStreamingMessage)"/.test(body) ? Math.random() * 1_500 : 0);
const rig = useGatewayRig({ prefix: 'a4h-kills-test-', secret: SECRET, user: USER, agent: { chunkDelayMs: 20 }, rttMs: 50, holdMs: sends });

describe('kill -9 every second, messages 0–1.5 s on their way to the agent', () => {
  it(
    `${CLIENTS} clients sending back to back for ${RUN_MS / 1000} s: none lost, none doubled, none orphaned, every reply whole`,
    { timeout: 120_000 },
    async () => {
      const until = Date.now() + RUN_MS;
      const sent: Array<{ thread: string; followed: Followed }> = [];
      const loops = Array.from({ length: CLIENTS }, async (_, i) => {
        const thread = `kills-${i}`;
        for (let n = 0; Date.now() < until; n++)
          sent.push({
            thread,
            followed: await followTurn({ gateway: rig.cluster.url, token: rig.token, thread, text: `message ${n} of ${thread}` }),
          });
      });
      const killer = killRandomly(rig.cluster, 1_000, until);
      const [kills] = await Promise.all([killer, ...loops]);

      const book = { lost: 0, doubled: 0, orphaned: 0, truncated: 0 };
      for (let i = 0; i < CLIENTS; i++) {
        const thread = `kills-${i}`;
        const mine = sent.filter((t) => t.thread === thread);
        const tasks = await agentTasks(rig.agent.url, await deriveContextId(SECRET, USER, thread));
        const count = ledger(
          mine.map((t) => t.followed.messageId!),
          tasks,
        );
        book.lost += count.lost.length;
        book.doubled += count.doubled.length;
        book.orphaned += count.orphaned.length;
        for (const { followed } of mine) {
          const task = tasks.find((t) => t.id === followed.end?.taskId);
          if (followed.end?.outcome !== 'completed' || task?.reply !== followed.reply || followed.reply !== followed.end.text)
            book.truncated++;
        }
      }
      const resent = sent.reduce((n, t) => n + t.followed.resent, 0);
      console.log(`kills: ${kills}, messages: ${sent.length}, sent again (not received): ${resent}, ${JSON.stringify(book)}`);
      expect(kills).toBeGreaterThanOrEqual(RUN_MS / 1000 - 3);
      expect(book).toEqual({ lost: 0, doubled: 0, orphaned: 0, truncated: 0 });
    },
  );
});
