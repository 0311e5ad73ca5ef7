/**
 * A rolling SIGTERM deploy of the gateway example's replicas, behind Debian's haproxy, in front of an
 * agent that takes 2 s to take a message (the demo agent behind a proxy 50 ms away that holds each
 * message 2 s more before the agent has it, as a model call before the agent stores its task would;
 * its `ListTasks` answers at once). Issue 46 found messages on their way doubled here: a draining
 * replica's clients were cut within a second, and the replica they asked next said `not-received`
 * before the agent had the message. Counted against
 * the agent's own record (its tasks and the messages each carries).
 *
 * Needs /usr/sbin/haproxy (npm test installs it: scripts/ensure-debian.sh) and the built library.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { followTurn } from '../../examples/gateway/client-follow.mjs';
import { deriveContextId } from '../../src/index.js';
import { agentTasks, ledger } from './agent-truth.js';
import { useGatewayRig } from './rig.js';

const SECRET = 'deploys-test-secret-not-for-production';
const USER = 'grace';
const sends = (body: string) => (/"method":\s*"(SendMessage|SendStreamingMessage|message\/s(end|tream))"/.test(body) ? 2_000 : 0);
const rig = useGatewayRig({ prefix: 'a4h-deploys-test-', secret: SECRET, user: USER, rttMs: 50, holdMs: sends });

describe('a rolling SIGTERM deploy, an agent that takes 2 s to take a message', () => {
  it(
    '30 messages on their way while every replica restarts: none lost, none doubled, every reply whole',
    { timeout: 120_000 },
    async () => {
      const threads = Array.from({ length: 30 }, (_, i) => `deploy-${i}`);
      const turns = threads.map((thread) =>
        followTurn({ gateway: rig.cluster.url, token: rig.token, thread, text: `hello from ${thread}` }),
      );
      await sleep(300); // every message has left its replica; none has reached the agent
      for (const name of rig.cluster.names) await rig.cluster.restart(name);
      const followed = await Promise.all(turns);
      const counted = await Promise.all(
        threads.map(async (thread, i) => {
          const tasks = await agentTasks(rig.agent.url, await deriveContextId(SECRET, USER, thread));
          return ledger([followed[i]!.messageId!], tasks);
        }),
      );
      expect(counted.filter((count) => count.lost.length + count.doubled.length + count.orphaned.length > 0)).toEqual([]);
      for (const f of followed) {
        expect(f.error).toBeUndefined();
        expect(f.end).toMatchObject({ outcome: 'completed' });
        expect(f.reply).toBe(f.end!.text);
      }
    },
  );
});
