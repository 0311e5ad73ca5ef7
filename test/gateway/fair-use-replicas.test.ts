/**
 * Fair use is each replica's own (the replicas share nothing): behind haproxy's round robin, three
 * replicas each holding a person to one stream at once let that person hold three, and refuse the
 * fourth (429) before it reaches the agent. docs/replicas.md tells operators what this means.
 *
 * Needs haproxy and the built library (`npm run build`).
 */
import { describe, expect, it } from 'vitest';
import { deriveContextId } from '../../src/index.js';
import { agentTasks } from './agent-truth.js';
import { rigOf } from './rig.js';

const SECRET = 'fair-use-replicas-test-secret-not-for-production';
const USER = 'erin';
const sent: string[] = [];
const rig = rigOf('a4h-fair-use-replicas-test-', SECRET, USER, {
  rttMs: 20,
  onRequest: (body) => {
    if (/"method":\s*"(SendMessage|SendStreamingMessage)"/.test(body)) sent.push(/"messageId":\s*"([^"]+)"/.exec(body)?.[1] ?? '?');
  },
  cluster: { replicas: 3, fairUse: { turns: 1, messagesPerMinute: 0 } },
});

describe('fair use behind haproxy', { timeout: 60_000 }, () => {
  it('three replicas, one stream each per person: the person holds three at once (one per replica), the fourth is 429', async () => {
    const post = (i: number) =>
      fetch(new URL(`threads/r-${i}/messages`, rig.cluster.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${rig.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text: `slow turn ${i}`, messageId: `erin-${i}` }),
      });
    // One after the other, so round robin takes them to A, B, C, then A again.
    const responses = [];
    for (let i = 0; i < 4; i++) responses.push(await post(i));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(new Set(responses.slice(0, 3).map((r) => r.headers.get('x-replica')))).toEqual(new Set(rig.cluster.names));
    expect(responses[3]!.headers.get('retry-after')).toBe('1');
    expect(await responses[3]!.json()).toMatchObject({ limit: 'turns', retryAfter: 1 });
    await Promise.all(responses.slice(0, 3).map((r) => r.text()));
    // The agent got the three, once each; the fourth never.
    expect(sent.filter((id) => id.startsWith('erin-')).sort()).toEqual(['erin-0', 'erin-1', 'erin-2']);
    const carried = [];
    for (let i = 0; i < 4; i++) {
      for (const task of await agentTasks(rig.agent.url, await deriveContextId(SECRET, USER, `r-${i}`), false))
        carried.push(...task.messageIds);
    }
    expect(carried.sort()).toEqual(['erin-0', 'erin-1', 'erin-2']);
  });
});
