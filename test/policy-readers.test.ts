/**
 * The turn options' reader (`resolvePolicy`, with `validation.ts`'s readers) against the zod schema it
 * replaced, kept below as the reference: over generated options, valid and with fields changed (wrong
 * types, NaN, infinities, fractions, numbers at and past each bound and past the safe integers, null,
 * extra members, groups dropped or given as other things), both resolve or both refuse; resolving, the
 * same policy (every default filled, unknown members dropped); refusing, the same message.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import * as z from 'zod/mini';
import { A2AError } from '../src/errors.js';
import { describeIssue } from '../src/cli/output/zod-issue.js';
import { MAX_TIMER_MS, resolvePolicy } from '../src/turn/policy.js';
import { agree, changed, changes } from './readers-changes.js';

// The reference: the zod schema and resolvePolicy before the readers, trimmed to what is compared.
const ms = (value: number) => z._default(z.number().check(z.int(), z.positive(), z.lte(MAX_TIMER_MS)), value);
const count = (min: number, max: number, value: number) => z._default(z.number().check(z.int(), z.gte(min), z.lte(max)), value);
const ratio = (min: number, max: number, value: number) => z._default(z.number().check(z.gte(min), z.lte(max)), value);
const backoff = (initialDelayMs: number, factor: number, maxDelayMs: number, jitter: number) => ({
  initialDelayMs: ms(initialDelayMs),
  factor: ratio(1, 10, factor),
  maxDelayMs: ms(maxDelayMs),
  jitter: ratio(0, 1, jitter),
});
const turnPolicySchema = z.object({
  cardTimeoutMs: ms(10_000),
  sendTimeoutMs: ms(300_000),
  firstEventTimeoutMs: ms(30_000),
  idleTimeoutMs: ms(300_000),
  authWaitMs: ms(600_000),
  turnTimeoutMs: ms(1_800_000),
  cancelTimeoutMs: ms(5_000),
  maxReplyChars: count(1, 1e9, 4_000_000),
  maxArtifacts: count(1, 1e7, 10_000),
  maxAttachmentBytes: count(0, 2 ** 40, 32 * 1024 * 1024),
  maxAttachments: count(0, 1e6, 100),
  continueInterrupted: z._default(z.boolean(), true),
  waitingTaskLookup: z._default(z.enum(['first-message', 'every-message']), 'first-message'),
  lookupTimeoutMs: ms(1_000),
  notReceivedAfterMs: count(0, MAX_TIMER_MS, 10_000),
  clockSkewMs: count(0, MAX_TIMER_MS, 60_000),
  secondMessage: z._default(z.enum(['queue', 'supersede', 'parallel']), 'queue'),
  reconnect: z.prefault(z.object({ maxAttempts: count(0, 100, 5), maxElapsedMs: ms(300_000), ...backoff(500, 2, 10_000, 0.5) }), {}),
  retryAfter: z.prefault(z.object({ maxTries: count(0, 100, 3), maxWaitMs: ms(30_000), ...backoff(1_000, 2, 10_000, 0.5) }), {}),
  poll: z.prefault(
    z.object({
      ...backoff(1_000, 1.5, 15_000, 0.2),
      requestTimeoutMs: ms(15_000),
      maxErrors: count(0, 100, 3),
      staleAfterMs: ms(300_000),
      longPollMs: count(0, MAX_TIMER_MS, 30_000),
    }),
    {},
  ),
});
type OldPolicy = z.output<typeof turnPolicySchema>;

function oldResolvePolicy(input: unknown): OldPolicy {
  if (input === undefined) return turnPolicySchema.parse({});
  const result = turnPolicySchema.safeParse(input);
  if (result.success) {
    const given = (input as { reconnect?: { maxElapsedMs?: unknown } }).reconnect?.maxElapsedMs !== undefined;
    if (!given) result.data.reconnect.maxElapsedMs = Math.max(result.data.reconnect.maxElapsedMs, result.data.idleTimeoutMs);
    if (result.data.reconnect.maxElapsedMs < result.data.idleTimeoutMs) {
      const { maxElapsedMs } = result.data.reconnect;
      const message = `invalid turn option reconnect.maxElapsedMs: it is ${maxElapsedMs}, shorter than idleTimeoutMs (${result.data.idleTimeoutMs}); it must not be`;
      throw new A2AError({ kind: 'config', operation: 'options', message });
    }
    return result.data;
  }
  const issue = result.error.issues[0];
  const where = issue?.path.map(String).join('.') || '(options)';
  throw new A2AError({ kind: 'config', operation: 'options', message: `invalid turn option ${where}: it ${describeIssue(issue)}` });
}

const newResolvePolicy = (input: unknown) => resolvePolicy(input as Parameters<typeof resolvePolicy>[0]);

/** Each field's valid values: at and between its bounds. */
const timer = fc.oneof(fc.integer({ min: 1, max: MAX_TIMER_MS }), fc.constantFrom(1, MAX_TIMER_MS, 300_000));
const whole = (min: number, max: number) => fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
const between = (min: number, max: number) => fc.oneof(fc.double({ min, max, noNaN: true }), fc.constantFrom(min, max));
/** A field that may be absent or given as `undefined` (callers' objects are not JSON). */
const partial = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T) =>
  fc.record(Object.fromEntries(Object.entries(fields).map(([name, arb]) => [name, fc.option(arb, { nil: undefined })])), {
    requiredKeys: [],
  });
const backoffs = { initialDelayMs: timer, factor: between(1, 10), maxDelayMs: timer, jitter: between(0, 1) };
const options = partial({
  cardTimeoutMs: timer,
  sendTimeoutMs: timer,
  firstEventTimeoutMs: timer,
  idleTimeoutMs: timer,
  authWaitMs: timer,
  turnTimeoutMs: timer,
  cancelTimeoutMs: timer,
  maxReplyChars: whole(1, 1e9),
  maxArtifacts: whole(1, 1e7),
  maxAttachmentBytes: whole(0, 2 ** 40),
  maxAttachments: whole(0, 1e6),
  continueInterrupted: fc.boolean(),
  waitingTaskLookup: fc.constantFrom('first-message', 'every-message'),
  lookupTimeoutMs: timer,
  notReceivedAfterMs: whole(0, MAX_TIMER_MS),
  clockSkewMs: whole(0, MAX_TIMER_MS),
  secondMessage: fc.constantFrom('queue', 'supersede', 'parallel'),
  reconnect: partial({ maxAttempts: whole(0, 100), maxElapsedMs: timer, ...backoffs }),
  retryAfter: partial({ maxTries: whole(0, 100), maxWaitMs: timer, ...backoffs }),
  poll: partial({
    ...backoffs,
    requestTimeoutMs: timer,
    maxErrors: whole(0, 100),
    staleAfterMs: timer,
    longPollMs: whole(0, MAX_TIMER_MS),
  }),
});

/** Numbers at and past every bound, not numbers, not finite, not whole, past the safe integers. */
const numbers = fc.constantFrom(
  ...[NaN, Infinity, -Infinity, 0, -0, -1, 0.5, 1, 1.5, 10, 10.5, 100, 101, 1e6, 1e6 + 1, 1e7, 1e7 + 1, 1e9, 1e9 + 1, 2 ** 40, 2 ** 40 + 1],
  ...[MAX_TIMER_MS, MAX_TIMER_MS + 1, MAX_TIMER_MS + 0.5, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, 2 ** 53 + 2, 1e300],
  ...[-1e300, Number.MIN_SAFE_INTEGER, Number.MIN_SAFE_INTEGER - 1, Number.MIN_VALUE, -Number.MIN_VALUE, Number.MAX_VALUE, 1 + 2 ** -52],
);
const others = fc.constantFrom<unknown>(null, undefined, '5', '', true, false, {}, [], [5], 5n, 'queue', 'every-message', 'Queue');
const values = fc.oneof(numbers, fc.double(), fc.integer(), others, fc.jsonValue({ maxDepth: 1 }));
const names = fc.constantFrom('extra', 'reconnect', 'poll', 'maxAttempts', 'cardTimeoutMs', '__proto__', 'constructor', 'toString');

describe('the turn options reader, against the zod schema it replaced', () => {
  it('resolves valid options as zod did: the same policy, or the same refusal of a reconnect budget shorter than the idle gap', () => {
    fc.assert(
      fc.property(options, (input) => agree(newResolvePolicy, oldResolvePolicy, input)),
      { numRuns: 2_000 },
    );
  });

  it('resolves or refuses changed options as zod did: the same policy, or the same first problem', () => {
    fc.assert(
      fc.property(options, changes(values, names, [1]), (input, edits) => agree(newResolvePolicy, oldResolvePolicy, changed(input, edits))),
      { numRuns: 5_000 },
    );
  });

  it('reads a lone field set to each value as zod did', () => {
    const fields = ['cardTimeoutMs', 'maxReplyChars', 'maxArtifacts', 'maxAttachmentBytes', 'maxAttachments', 'secondMessage'];
    const nested = ['reconnect.maxAttempts', 'reconnect.factor', 'reconnect.jitter', 'retryAfter.maxWaitMs', 'poll.maxErrors', 'poll'];
    fc.assert(
      fc.property(fc.constantFrom(...fields, ...nested), values, (field, value) => {
        const [group, name] = field.split('.');
        agree(newResolvePolicy, oldResolvePolicy, name === undefined ? { [field]: value } : { [group!]: { [name]: value } });
      }),
      { numRuns: 3_000 },
    );
  });
});
