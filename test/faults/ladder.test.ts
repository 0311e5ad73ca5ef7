/**
 * Fault matrix, part 4: the rungs below the stream (fault 13 and beyond), per protocol version.
 * The stream breaks after the task is known and then the resubscribe fails too (refused, 5xx,
 * stalled, closed at once, 404): after the attempts, polling GetTask completes the turn with the
 * whole reply. Then faults on GetTask itself and on CancelTask, and the client facade.
 */
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Fault } from '../../fixtures/fault-proxy.js';
import { REPLY } from '../../fixtures/index.js';
import { createA2A } from '../../src/client/create-a2a.js';
import { runTurn } from '../../src/turn/turn.js';
import { eventually } from '../eventually.js';
import { eventsOf, expectCancels, expectError, expectReply, POLICY, run, SLOW_REPLY, useRig, VERSIONS } from './kit.js';

const INTERNAL = { jsonRpcError: { code: -32603, message: 'Internal error' } };
const CUT: Fault = { type: 'cut', afterEvents: 4, mode: 'destroy' };
/** For stalled resubscribes: each attempt gives up after 200 ms (the first stream's first event comes well within it). */
const QUICK_FIRST_EVENT = { ...POLICY, policy: { ...POLICY.policy, firstEventTimeoutMs: 200 } };

/**
 * Resubscribe faults that must end in polling: the fault, the kind each failed attempt reports, the
 * attempts made. None reaches the agent, so the cells do not depend on whether the task is still
 * running (a v1.0 agent refuses to resubscribe to a finished task).
 */
const DROPPED: ReadonlyArray<[string, Fault, string, number]> = [
  ['refused (socket destroyed)', { type: 'refuse' }, 'network', 3],
  ['answered 503 without a body', { type: 'respond', status: 503 }, 'http', 3],
  ['answered 502 with a plain-text body', { type: 'respond', status: 502, body: 'bad gateway' }, 'http', 3],
  ['answered 503 with a JSON-RPC error body', { type: 'respond', status: 503, body: INTERNAL }, 'http', 3],
  ['stalled (no answer)', { type: 'hang', ms: Infinity }, 'timeout', 3],
  [
    'closed at once (200 text/event-stream, no event)',
    { type: 'respond', status: 200, contentType: 'text/event-stream', body: '' },
    'stream-closed',
    3,
  ],
  ['answered 404', { type: 'respond', status: 404 }, 'unsupported', 1],
];

for (const version of VERSIONS) {
  describe(`${version.name}: resubscribe, poll and cancel faults`, () => {
    const rig = useRig(version);

    for (const [name, fault, kind, attempts] of DROPPED) {
      it(`stream cut, every resubscribe ${name} → polling completes the whole reply`, async () => {
        const r = rig();
        r.proxy.plan({ on: 'stream', fault: CUT });
        r.proxy.plan({ on: 'resubscribe', fault, times: Infinity });
        const result = await r.turn('slow', fault.type === 'hang' ? QUICK_FIRST_EVENT : POLICY);
        expectReply(result, SLOW_REPLY);
        expect(eventsOf(result, 'polling')).toMatchObject([{ reason: 'resubscribe-failed', cause: { kind } }]);
        expect(eventsOf(result, 'reconnecting')).toHaveLength(attempts);
        expect(r.proxy.count('resubscribe')).toBe(attempts);
        expect(r.reached('get')).toBeGreaterThanOrEqual(1);
        expect([r.reached('stream'), r.reached('send')]).toEqual([1, 0]);
        await expectCancels(r, 0);
      });
    }

    it('stream cut, the resubscribe answered 200 with a JSON-RPC internal error → the server declined: polling completes', async () => {
      const r = rig();
      r.proxy.plan({ on: 'stream', fault: CUT });
      r.proxy.plan({ on: 'resubscribe', fault: { type: 'respond', status: 200, body: INTERNAL }, times: Infinity });
      const result = await r.turn('slow');
      expectReply(result, SLOW_REPLY);
      expect(eventsOf(result, 'polling')).toHaveLength(1);
      await expectCancels(r, 0);
    });

    it('polling: one GetTask answered 503 is tried again, the turn completes', async () => {
      const r = rig();
      r.proxy.plan({ on: 'stream', fault: CUT });
      r.proxy.plan({ on: 'resubscribe', fault: { type: 'respond', status: 404 } });
      r.proxy.plan({ on: 'get', fault: { type: 'respond', status: 503 } });
      expectReply(await r.turn('slow'), SLOW_REPLY);
      expect(r.proxy.seen.filter((s) => s.kind === 'get')[0]).toMatchObject({ status: 503 });
      await expectCancels(r, 0);
    });

    it('polling: every GetTask refused → network error after poll.maxErrors retries, CancelTask once', async () => {
      const r = rig();
      r.proxy.plan({ on: 'stream', fault: CUT });
      r.proxy.plan({ on: 'resubscribe', fault: { type: 'respond', status: 404 } });
      r.proxy.plan({ on: 'get', fault: { type: 'refuse' }, times: Infinity });
      expectError(await r.turn('slow'), 'network', { operation: 'get-task' });
      expect(r.proxy.count('get')).toBe(4); // the first try and poll.maxErrors (3) retries
      await expectCancels(r, 1);
    });

    it('polling: GetTask answers a JSON-RPC response of another request → protocol error, CancelTask once', async () => {
      const r = rig();
      r.proxy.plan({ on: 'stream', fault: CUT });
      r.proxy.plan({ on: 'resubscribe', fault: { type: 'respond', status: 404 } });
      const body = '{"jsonrpc":"2.0","id":"not-yours","result":{"hello":1}}';
      r.proxy.plan({ on: 'get', fault: { type: 'respond', status: 200, contentType: 'application/json', body }, times: Infinity });
      const error = expectError(await r.turn('slow'), 'protocol', { operation: 'get-task' });
      expect(error.message).toMatch(/ID mismatch/);
      await expectCancels(r, 1);
    });

    for (const [name, fault] of [
      ['refused', { type: 'refuse' }],
      ['stalled past cancelTimeoutMs', { type: 'hang', ms: Infinity }],
      ['answered 500', { type: 'respond', status: 500, body: INTERNAL }],
    ] as const) {
      it(`abandoned turn whose CancelTask is ${name} → sent once, never thrown`, async () => {
        const r = rig();
        r.proxy.plan({ on: 'cancel', fault, times: Infinity });
        const options = { ...POLICY, policy: { ...POLICY.policy, cancelTimeoutMs: 200 } };
        await new Promise<void>((resolve, reject) => {
          const subscription = runTurn(r.ports(r.proxy.url('/')), { text: 'slow' }, options).subscribe({
            next: (event) => {
              if (event.type !== 'text') return;
              subscription.unsubscribe();
              resolve();
            },
            error: reject,
          });
        });
        await eventually(() => r.proxy.count('cancel') === 1);
        await new Promise((resolve) => setTimeout(resolve, 250)); // past cancelTimeoutMs: no second try
        expect(r.proxy.count('cancel')).toBe(1);
        expect(r.cancels()).toBe(0);
      });
    }

    it('createA2A: a turn abandoned mid-stream → close() waits for the one CancelTask', async () => {
      const r = rig();
      const a2a = createA2A({ fetch: r.http.fetch, policy: POLICY.policy, identitySecret: 'fault-matrix-secret-0123456789' });
      r.proxy.plan({ on: 'stream', fault: { type: 'stall', afterEvents: 3, ms: Infinity } });
      const turn$ = a2a.turn({ agent: r.proxy.url('/'), handle: 'faults', thread: 't1', text: 'slow' });
      await new Promise<void>((resolve, reject) => {
        const subscription = turn$.subscribe({
          next: (event) => {
            if (event.type !== 'task') return;
            subscription.unsubscribe();
            resolve();
          },
          error: reject,
        });
      });
      await a2a.close();
      expect(r.cancels()).toBe(1);
    });

    it('createA2A: the stream cut after the task → the whole reply, and the next turn on the thread works', async () => {
      const r = rig();
      const a2a = createA2A({ fetch: r.http.fetch, policy: POLICY.policy, identitySecret: 'fault-matrix-secret-0123456789' });
      r.proxy.plan({ on: 'stream', fault: { type: 'cut', afterEvents: 4, mode: 'reset' } });
      const input = { agent: r.proxy.url('/'), handle: 'faults', thread: 't2', text: 'slow' };
      expectReply(await run(a2a.turn(input)), SLOW_REPLY);
      const again = await lastValueFrom(a2a.turn({ ...input, text: 'artifacts' }));
      expect(again).toMatchObject({ type: 'end', outcome: 'completed', text: REPLY.artifacts });
      await a2a.close();
      await expectCancels(r, 0);
    });
  });
}
