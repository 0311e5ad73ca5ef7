/**
 * Fault matrix, part 3: made-up HTTP answers instead of the agent's (faults 10–12), per protocol
 * version: 5xx with and without a body on the stream, 404/405/501 (the blocking fallback), the
 * wrong content type, a card fetch refused, stalled or failed, and the same on the blocking send.
 */
import { describe, expect, it } from 'vitest';
import type { Fault } from '../../fixtures/fault-proxy.js';
import { REPLY } from '../../fixtures/index.js';
import { eventsOf, expectCancels, expectError, expectReply, POLICY, useRig, VERSIONS } from './kit.js';

const INTERNAL = { jsonRpcError: { code: -32603, message: 'Internal error' } };

/** A 5xx answer: no body, a plain-text body, or a JSON-RPC error body. */
const BODIES: ReadonlyArray<[string, Pick<Extract<Fault, { type: 'respond' }>, 'body'>]> = [
  ['no body', {}],
  ['a plain-text body', { body: 'upstream unavailable' }],
  ['a JSON-RPC error body', { body: INTERNAL }],
];

for (const version of VERSIONS) {
  describe(`${version.name}: made-up answers`, () => {
    const rig = useRig(version);

    // A 503 here is not waited for: the policy's first wait (1 s, no Retry-After) reaches firstEventTimeoutMs (1 s). `not-now.test.ts` waits.
    for (const status of [500, 502, 503]) {
      for (const [name, body] of BODIES) {
        it(`stream answered ${status} with ${name} → retryable http error, nothing re-sent`, async () => {
          const r = rig();
          r.proxy.plan({ on: 'stream', fault: { type: 'respond', status, ...body } });
          const result = await r.turn('artifacts');
          expectError(result, 'http', { status, retryable: true, operation: 'stream' });
          expect([r.reached('stream'), r.reached('send'), r.proxy.count('stream'), r.proxy.count('send')]).toEqual([0, 0, 1, 0]);
          await expectCancels(r, 0);
        });
      }
    }

    for (const status of [404, 405, 501]) {
      it(`stream answered ${status} → fallback to one blocking send, the whole reply`, async () => {
        const r = rig();
        r.proxy.plan({ on: 'stream', fault: { type: 'respond', status, body: 'no such thing' } });
        const result = await r.turn('artifacts');
        expectReply(result, REPLY.artifacts);
        expect(eventsOf(result, 'fallback')).toMatchObject([{ from: 'stream', to: 'send', cause: { kind: 'unsupported', status } }]);
        expect([r.reached('stream'), r.reached('send')]).toEqual([0, 1]);
        await expectCancels(r, 0);
      });
    }

    it('stream answered 200 text/html → protocol error naming the content type', async () => {
      const r = rig();
      r.proxy.plan({
        on: 'stream',
        fault: { type: 'respond', status: 200, contentType: 'text/html', body: '<html><body>Sign in</body></html>' },
      });
      const result = await r.turn('artifacts');
      const error = expectError(result, 'protocol', { operation: 'stream' });
      expect(error.message).toMatch(/Content-Type/);
      expect(r.reached('send')).toBe(0);
      await expectCancels(r, 0);
    });

    it('stream answered 200 application/json with a JSON-RPC error → protocol error with its code', async () => {
      const r = rig();
      r.proxy.plan({ on: 'stream', fault: { type: 'respond', status: 200, body: INTERNAL } });
      expectError(await r.turn('artifacts'), 'protocol', { code: -32603 });
      await expectCancels(r, 0);
    });

    it('card fetch refused (socket destroyed) → card error, no protocol call', async () => {
      const r = rig();
      r.proxy.plan({ on: 'card', fault: { type: 'refuse' } });
      const result = await r.turn('artifacts');
      expectError(result, 'card', { operation: 'card' });
      expect(r.proxy.seen.map((s) => s.kind)).toEqual(['card']);
    });

    it('card fetch stalled → timeout in phase card, no protocol call', async () => {
      const r = rig();
      r.proxy.plan({ on: 'card', fault: { type: 'hang', ms: Infinity } });
      const result = await r.turn('artifacts', { ...POLICY, policy: { ...POLICY.policy, cardTimeoutMs: 300 } });
      expectError(result, 'timeout', { phase: 'card' });
      expect(r.proxy.seen.map((s) => s.kind)).toEqual(['card']);
    });

    it('card fetch stalled shorter than its bound → the turn completes', async () => {
      const r = rig();
      r.proxy.plan({ on: 'card', fault: { type: 'hang', ms: 150 } });
      expectReply(await r.turn('artifacts'), REPLY.artifacts);
    });

    for (const status of [500, 503]) {
      it(`card answered ${status} → card error with the status`, async () => {
        const r = rig();
        r.proxy.plan({ on: 'card', fault: { type: 'respond', status, body: 'down' } });
        expectError(await r.turn('artifacts'), 'card', { status });
      });
    }

    it('card answered 200 text/html → card error: not JSON', async () => {
      const r = rig();
      r.proxy.plan({ on: 'card', fault: { type: 'respond', status: 200, contentType: 'text/html', body: '<html>login</html>' } });
      const error = expectError(await r.turn('artifacts'), 'card');
      expect(error.message).toMatch(/not JSON/);
    });

    it('a failed card fetch is not cached: the next turn fetches again and completes', async () => {
      const r = rig();
      r.proxy.plan({ on: 'card', fault: { type: 'refuse' } });
      expectError(await r.turn('artifacts'), 'card');
      expectReply(await r.turn('artifacts'), REPLY.artifacts);
      expect(r.proxy.count('card')).toBe(2);
    });

    // A 502 or 504 does not say the agent did not take the message (a proxy's answer, perhaps after it did): never sent again.
    // A 503 is sent again (`not-now.test.ts`), unless retryAfter.maxTries is 0.
    for (const [status, policy] of [
      [502, POLICY],
      [504, POLICY],
      [503, { ...POLICY, policy: { ...POLICY.policy, retryAfter: { maxTries: 0 } } }],
    ] as const) {
      it(`blocking send (non-streaming card) answered ${status}${status === 503 ? ' with retryAfter.maxTries 0' : ''} → retryable http error, sent once`, async () => {
        const r = rig();
        r.proxy.plan({ on: 'send', fault: { type: 'respond', status } });
        expectError(await r.turn('artifacts', policy, '/nostream/'), 'http', { status, retryable: true, operation: 'send' });
        expect([r.proxy.count('send'), r.reached('send')]).toEqual([1, 0]);
      });
    }

    it('blocking send whose connection drops → network error, sent once, no cancel (no task id)', async () => {
      const r = rig();
      r.proxy.plan({ on: 'send', fault: { type: 'refuse' } });
      expectError(await r.turn('artifacts', POLICY, '/nostream/'), 'network', { operation: 'send' });
      expect(r.proxy.count('send')).toBe(1);
      await expectCancels(r, 0);
    });

    it('blocking send stalled past its bound → timeout in phase send', async () => {
      const r = rig();
      r.proxy.plan({ on: 'send', fault: { type: 'hang', ms: Infinity } });
      const result = await r.turn('artifacts', { ...POLICY, policy: { ...POLICY.policy, sendTimeoutMs: 300 } }, '/nostream/');
      expectError(result, 'timeout', { phase: 'send' });
      expect(r.proxy.count('send')).toBe(1);
    });
  });
}
