import { describe, expect, it } from 'vitest';
import { isFailure } from '../../src/cli/outcome.js';

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
