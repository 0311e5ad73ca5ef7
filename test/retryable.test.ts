import { describe, expect, it } from 'vitest';
import { A2AError, timeoutError, type A2AErrorKind, type TimeoutPhase } from '../src/errors.js';

/**
 * Which errors say "try again", as docs/faults.md's table says and why: written out here, not read
 * from the code. The statuses' rows (http, card) are pinned by test/sdk/wire/wire-errors.test.ts and
 * test/sdk/agent/card/card-limits.test.ts.
 */
const BY_KIND: [A2AErrorKind, boolean][] = [
  ['network', true],
  ['stream-closed', true],
  ['timeout', true],
  ['http', false],
  ['card', false],
  ['protocol', false],
  ['unsupported', false],
  ['task-not-found', false],
  ['foreign-task', false],
  ['aborted', false],
  ['config', false],
  ['input', false],
  ['auth', false],
  ['conflict', false],
  ['queue-full', true],
];

const BY_PHASE: [TimeoutPhase, boolean][] = [
  ['card', true],
  ['first-event', true],
  ['idle', true],
  ['poll-request', true],
  ['send', false],
  ['turn', false],
  ['stale', false],
  ['auth-wait', false],
  ['cancel', false],
  ['lookup', false],
];

describe('retryable', () => {
  it.each(BY_KIND)('a %s error made without a say is retryable: %s', (kind, retryable) => {
    expect(new A2AError({ kind, message: 'x' }).retryable).toBe(retryable);
  });

  it.each(BY_PHASE)('a timeout in phase %s is retryable: %s', (phase, retryable) => {
    expect(timeoutError(phase, 1, 'turn').retryable).toBe(retryable);
  });
});
