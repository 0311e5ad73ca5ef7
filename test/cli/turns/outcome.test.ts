import { describe, expect, it } from 'vitest';
import { isFailure } from '../../../src/cli/turns/outcome.js';
import { exitCodeFor } from '../../../src/cli/core/options.js';

describe('the outcomes the CLI counts as failures', () => {
  it.each([
    ['completed', false],
    ['input-required', false],
    ['auth-required', false],
    ['failed', true],
    ['rejected', true],
    ['canceled', true],
  ] as const)('%s: %s', (outcome, failure) => {
    expect(isFailure(outcome)).toBe(failure);
  });
});

describe('the exit status of a turn that ended (the command did its job, whatever the task)', () => {
  it.each([
    ['completed', 0],
    ['failed', 0],
    ['input-required', 0],
    ['none', 0],
    // A resume by message: the agent never got it (send it again), or a4h cannot tell yet (ask again later).
    ['not-received', 1],
    ['unknown', 1],
  ] as const)('%s: %s', (outcome, code) => {
    if (outcome !== 'failed') expect(isFailure(outcome)).toBe(false);
    expect(exitCodeFor(outcome)).toBe(code);
  });
});
