/**
 * Fault matrix, part 2: frames a server should never send (faults 6–9), per protocol version.
 * The SDK does not skip a malformed, non-JSON-RPC or oversized frame: the turn ends with a clear
 * `protocol` error naming it (CancelTask once when the task was known and not settled). An event of
 * another task is dropped by the ladder: the reply comes whole and once. Never a hang.
 */
import { describe, expect, it } from 'vitest';
import type { InjectedFrame } from '../../fixtures/fault-proxy.js';
import { eventsOf, expectCancels, expectError, expectReply, POLICY, SLOW_REPLY, useRig, VERSIONS } from './kit.js';

/** What each reader (the SDK's, then ours) says about each bad frame (the error must name the problem). */
const BAD_FRAMES: ReadonlyArray<[string, InjectedFrame, RegExp]> = [
  ['a malformed frame (data: {not json)', { kind: 'malformed' }, /parse SSE event data|malformed frame: not JSON/i],
  ['a JSON frame that is not JSON-RPC ({"hello":1})', { kind: 'not-jsonrpc' }, /JSON-RPC|jsonrpc|ID mismatch/i],
  // Ours says what it is; the SDK's readers that it lacks jsonrpc (v1.0) or that its id is another call's (v0.3).
  [
    'a bare CloudEvent instead of a JSON-RPC frame',
    { kind: 'cloudevent' },
    /not a JSON-RPC response but a CloudEvent|expected 'jsonrpc' to be exactly '2.0'|ID mismatch/i,
  ],
  ['an oversized event (> 4 MiB)', { kind: 'oversized' }, /exceeded the maximum allowed size|larger than 4194304 characters/i],
];

/**
 * Generous first-event and idle bounds: receiving and scanning a 4 MiB line takes the SDK's parser
 * long enough on a busy machine that a short bound may fire first (a timeout before the task is
 * known, or a break and a resubscribe after it), which is right too but not the cell under test.
 */
const PATIENT = { ...POLICY, policy: { ...POLICY.policy, firstEventTimeoutMs: 3_000, idleTimeoutMs: 3_000 } };

for (const version of VERSIONS) {
  describe(`${version.name}: bad frames`, () => {
    const rig = useRig(version);

    for (const [name, frame, says] of BAD_FRAMES) {
      it(`${name} before any event → protocol error naming it, nothing re-sent, no cancel`, async () => {
        const r = rig();
        r.proxy.plan({ on: 'stream', fault: { type: 'inject', afterEvents: 0, frame } });
        const result = await r.turn('slow', PATIENT);
        const error = expectError(result, 'protocol', { operation: 'stream' });
        expect(error.message).toMatch(says);
        expect([r.reached('stream'), r.reached('resubscribe'), r.reached('send')]).toEqual([1, 0, 0]);
        await expectCancels(r, 0);
      });

      it(`${name} after the task is known → protocol error naming it, CancelTask once`, async () => {
        const r = rig();
        r.proxy.plan({ on: 'stream', fault: { type: 'inject', afterEvents: 3, frame } });
        const result = await r.turn('slow', PATIENT);
        // The SDK throws on the frame (it does not skip it): the turn ends with the protocol error.
        const error = expectError(result, 'protocol', { operation: 'stream', retryable: false });
        expect(error.message).toMatch(says);
        expect([r.reached('stream'), r.reached('resubscribe'), r.reached('send')]).toEqual([1, 0, 0]);
        await expectCancels(r, 1);
      });
    }

    it('a malformed frame on the resubscribe → protocol error, CancelTask once', async () => {
      const r = rig();
      r.proxy.plan({ on: 'stream', fault: { type: 'cut', afterEvents: 3, mode: 'destroy' } });
      r.proxy.plan({ on: 'resubscribe', fault: { type: 'inject', afterEvents: 1, frame: { kind: 'malformed' } } });
      const result = await r.turn('slow', PATIENT);
      expectError(result, 'protocol', { operation: 'resubscribe' });
      await expectCancels(r, 1);
    });

    /** Events of another task, injected after the 4th event (a chunk of `slow` is the source of a copy). */
    const OTHER_TASK: ReadonlyArray<[string, InjectedFrame]> = [
      ['a copy of the last chunk (append) under another task id', { kind: 'other-task', as: 'copy' }],
      ['an artifact chunk of another task', { kind: 'other-task', as: 'artifact', text: 'INJECTED' }],
      ['a WORKING status of another task, with a message', { kind: 'other-task', as: 'status', state: 'working', text: 'INJECTED' }],
      ['a COMPLETED status of another task', { kind: 'other-task', as: 'status', state: 'completed', text: 'INJECTED' }],
    ];

    for (const [name, frame] of OTHER_TASK) {
      it(`${name} → dropped: the reply is whole and once, the turn follows its own task only`, async () => {
        const r = rig();
        r.proxy.plan({ on: 'stream', fault: { type: 'inject', afterEvents: 4, frame } });
        const result = await r.turn('slow', PATIENT);
        expectReply(result, SLOW_REPLY);
        const [task, ...others] = eventsOf(result, 'task');
        expect(others).toEqual([]);
        expect(result.events.at(-1)).toMatchObject({ type: 'end', taskId: task?.taskId });
        expect(JSON.stringify(result.events)).not.toContain('INJECTED');
        await expectCancels(r, 0);
      });
    }
  });
}
