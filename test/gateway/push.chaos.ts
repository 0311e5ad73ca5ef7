/**
 * The push gateway's chaos run (`npm run test:chaos`; not part of `npm test`): three replicas started
 * with `--push` behind haproxy, the demo agent 150 ms away pushing with @a2a-js/sdk 1.3's own sender,
 * each word 300 ms apart (tasks of 7 to 12 s), 20 clients sending back to back for 60 s while a random
 * replica is killed (kill -9, started again at once) every 2 s. Counted against the agent's own record
 * and against what reached it; the figures go to the console and to test-output/gateway-push-chaos.json.
 * push-kills.test.ts is its short form in `npm test`.
 */
import { describe, expect, it } from 'vitest';
import { killRandomly } from './killer.js';
import { pushLoad, reportFigures } from './push-load.js';
import { useGatewayRig } from './rig.js';

const SECRET = 'push-chaos-secret-not-for-production';
const USER = 'chaos';
const toAgent: string[] = [];
const gatewayLog: string[] = [];

const rig = useGatewayRig(
  {
    prefix: 'a4h-push-chaos-',
    secret: SECRET,
    user: USER,
    tokenTtlSeconds: 3600,
    agent: { chunkDelayMs: 300 },
    rttMs: 150,
    methods: toAgent,
    cluster: { push: true, log: (line) => gatewayLog.push(line) },
    needs: { haproxy: false, build: false },
  },
  60_000,
);

describe('the push gateway under chaos', () => {
  it('kill -9 of a random replica every 2 s for 60 s under 20 clients with long tasks followed by push', { timeout: 240_000 }, async () => {
    const figures = await pushLoad({
      rig,
      secret: SECRET,
      user: USER,
      prefix: 'push-chaos',
      clients: 20,
      runMs: 60_000,
      killer: (cluster, until) => killRandomly(cluster, 2_000, until),
      text: (n, thread) => `message ${n} of ${thread}`,
      toAgent,
      gatewayLog,
    });
    await reportFigures('push chaos', 'gateway-push-chaos.json', figures);
    expect(figures).toMatchObject({ lost: 0, doubled: 0, orphaned: 0, truncated: 0 });
    expect(figures.moved).toBeGreaterThan(0);
    expect(Object.keys(figures.atAgent).filter((method) => /Stream|Subscribe/.test(method))).toEqual([]);
  });
});
