/**
 * One replica with `--push` and no load balancer (its receiver's URL is its own origin): `--push-when MS`
 * streams a turn first and hands its running task over to pushes after MS (the stream let go), and a
 * receiver's path that is not a replica's name is not found. Against the demo agent (@a2a-js/sdk 1.3's
 * own push sender) 50 ms away, every request to it counted.
 *
 * Needs the built library.
 */
import { describe, expect, it } from 'vitest';
import { followTurn } from '../../examples/gateway/client-follow.mjs';
import { freePort } from '../../examples/gateway/cluster.mjs';
import { startGateway, type Gateway } from '../../examples/gateway/replica.mjs';
import { deriveContextId } from '../../src/index.js';
import { agentTasks } from './agent-truth.js';
import { rigOf } from './rig.js';

const SECRET = 'push-solo-test-secret-not-for-production';
const USER = 'sol';
const toAgent: string[] = [];

const rig = rigOf('a4h-push-solo-test-', SECRET, USER, {
  agent: { chunkDelayMs: 120 },
  rttMs: 50,
  methods: toAgent,
  cluster: false,
  needs: { haproxy: false },
});

async function solo(when: number): Promise<Gateway> {
  const port = await freePort();
  return startGateway({
    agent: rig.far.url,
    port,
    name: 'solo',
    secret: SECRET,
    auth: rig.auth,
    push: { via: `http://127.0.0.1:${port}/`, when: { afterMs: when } },
  });
}

describe('one replica following by push, no load balancer', { timeout: 30_000 }, () => {
  it('--push-when 600: the turn streams, then its task is handed over to pushes and the stream let go; the reply whole', async () => {
    const gateway = await solo(600);
    try {
      const before = toAgent.length;
      const events: string[] = [];
      const followed = await followTurn({
        gateway: gateway.url,
        token: rig.token,
        thread: 'handed',
        text: 'tell me a long story',
        onEvent: (event) => events.push(event.type === 'push' ? `push ${String(event.step)}` : event.type),
      });
      expect(followed.end).toMatchObject({ outcome: 'completed' });
      const tasks = await agentTasks(rig.agent.url, await deriveContextId(SECRET, USER, 'handed'));
      expect(tasks.map((task) => task.reply)).toEqual([followed.reply]);
      expect(followed.reply).toBe(followed.end!.text);
      expect(events).toContain('push handed-off');
      const methods = toAgent.slice(before);
      expect(methods.filter((m) => m !== 'GetTask')).toEqual(['SendStreamingMessage', 'CreateTaskPushNotificationConfig']);
      const health = (await (await fetch(new URL('healthz', gateway.url))).json()) as { push: { outcomes: { taken?: number } } };
      expect(health.push.outcomes.taken).toBeGreaterThan(5);
    } finally {
      await gateway.close();
    }
  });

  it('a push to a path that names no replica is not found; one without a credential is refused', async () => {
    const gateway = await solo(600);
    try {
      const post = (path: string) =>
        fetch(new URL(path, gateway.url), { method: 'POST', headers: { 'content-type': 'application/a2a+json' }, body: '{}' });
      expect((await post('a2a/push/no%20such')).status).toBe(404);
      expect((await post('a2a/push/solo')).status).toBe(401);
      expect((await post('a2a/push/another-replica')).status).toBe(401);
    } finally {
      await gateway.close();
    }
  });
});
