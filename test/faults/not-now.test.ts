/**
 * "Not now": an agent (or a proxy before it) answering HTTP 429 or 503 before any event, with or
 * without `Retry-After`, on real SDK agents behind the fault proxy, for each protocol version and
 * reader. The call is made again after the wait and the agent's own record shows the message
 * arrived once; past the policy's bounds the error says when to try again.
 */
import { describe, expect, it } from 'vitest';
import { REPLY } from '../../fixtures/index.js';
import type { LadderOptions } from '../../src/turn/turn.js';
import { expectError, expectReply, POLICY, useRig, VERSIONS } from './kit.js';

/** The kit's bounds, with room for a second's wait before a send's or stream's answer, and the waits a 429 or 503 without `Retry-After` gets: 50, 100, 200 ms. */
const WAITING: LadderOptions = {
  ...POLICY,
  policy: {
    ...POLICY.policy,
    cardTimeoutMs: 5_000,
    sendTimeoutMs: 5_000,
    firstEventTimeoutMs: 5_000,
    retryAfter: { maxTries: 3, initialDelayMs: 50, factor: 2, jitter: 0 },
  },
};

for (const version of VERSIONS) {
  describe(`${version.name}: 429 and 503 before any event`, () => {
    const rig = useRig(version);

    it('a stream answered 429 (Retry-After: 1), then 503 (none) is opened a third time: the whole reply, the message at the agent once', async () => {
      const r = rig();
      r.proxy.plan({ on: 'stream', fault: { type: 'respond', status: 429, headers: { 'retry-after': '1' } } });
      r.proxy.plan({ on: 'stream', fault: { type: 'respond', status: 503, body: 'restarting' } });
      const result = await r.turn('artifacts', WAITING);
      expectReply(result, REPLY.artifacts);
      expect([r.proxy.count('stream'), r.reached('stream'), r.reached('send')]).toEqual([3, 1, 0]);
      // One second for the agent's Retry-After, 100 ms for the second backoff step (the first was used by the 429).
      expect(result.ms).toBeGreaterThanOrEqual(1_000);
    });

    it('a blocking send answered 503 with a JSON-RPC error and Retry-After: 1 is sent again once: the message at the agent once', async () => {
      const r = rig();
      const busy = { jsonRpcError: { code: -32603, message: 'overloaded' } };
      r.proxy.plan({ on: 'send', fault: { type: 'respond', status: 503, body: busy, headers: { 'Retry-After': '1' } } });
      const result = await r.turn('artifacts', WAITING, '/nostream/');
      expectReply(result, REPLY.artifacts);
      expect([r.proxy.count('send'), r.reached('send')]).toEqual([2, 1]);
      expect(result.ms).toBeGreaterThanOrEqual(1_000);
    });

    it('past retryAfter.maxTries the 429 is the error, carrying its Retry-After; nothing reached the agent', async () => {
      const r = rig();
      r.proxy.plan({ on: 'stream', fault: { type: 'respond', status: 429, headers: { 'retry-after': '0' } }, times: Infinity });
      const before = Date.now();
      const error = expectError(await r.turn('artifacts', WAITING), 'http', {
        status: 429,
        retryable: true,
        operation: 'stream',
        retryAfterMs: 0,
      });
      expect(error.retryAt).toBeGreaterThanOrEqual(before);
      expect([r.proxy.count('stream'), r.reached('stream')]).toEqual([4, 0]);
    });

    it('a Retry-After longer than retryAfter.maxWaitMs is not waited for: the error at once, saying when', async () => {
      const r = rig();
      r.proxy.plan({ on: 'send', fault: { type: 'respond', status: 503, headers: { 'retry-after': '120' } } });
      const result = await r.turn('artifacts', WAITING, '/nostream/');
      const error = expectError(result, 'http', { status: 503, operation: 'send', retryAfterMs: 120_000 });
      expect(error.retryAt! - Date.now()).toBeGreaterThan(100_000);
      expect(result.ms).toBeLessThan(5_000); // not 120 s, nor retryAfter.maxWaitMs
      expect([r.proxy.count('send'), r.reached('send')]).toEqual([1, 0]);
    });
  });
}

describe('the card answered 503 with an HTTP-date Retry-After', () => {
  const rig = useRig(VERSIONS[0]!);

  it('is fetched again at that date and the turn completes', async () => {
    const r = rig();
    const at = new Date(Date.now() + 2_000).toUTCString();
    r.proxy.plan({ on: 'card', fault: { type: 'respond', status: 503, headers: { 'retry-after': at } } });
    const result = await r.turn('artifacts', WAITING);
    expectReply(result, REPLY.artifacts);
    expect(r.proxy.count('card')).toBe(2);
    // The date has whole seconds: the wait is between one and two seconds.
    expect(result.ms).toBeGreaterThanOrEqual(900);
  });

  it('a Retry-After past cardTimeoutMs (1 s here) is not waited for: the card error, retryable, says when', async () => {
    const r = rig();
    r.proxy.plan({ on: 'card', fault: { type: 'respond', status: 503, headers: { 'retry-after': '3' } }, times: Infinity });
    const error = expectError(await r.turn('artifacts'), 'card', { status: 503, retryable: true, retryAfterMs: 3_000 });
    expect(error.retryAt).toBeGreaterThan(Date.now());
    expect(r.proxy.count('card')).toBe(1);
  });
});
