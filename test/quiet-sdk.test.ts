/** A green `npm test` prints no stack traces: the fixture agents drop the SDK's pre-stream error lines, and only those. */
import { describe, expect, it, vi } from 'vitest';

describe('quietSdkPreStreamErrors', () => {
  it("drops the SDK's `Pre-stream error for request N:` lines and keeps every other console.error", async () => {
    const seen: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void seen.push(args);
    try {
      vi.resetModules();
      const { quietSdkPreStreamErrors } = await import('../fixtures/quiet-sdk.js');
      quietSdkPreStreamErrors();
      quietSdkPreStreamErrors(); // idempotent
      console.error('Pre-stream error for request 3:', new Error('Task t is in a terminal state (3) and cannot be subscribed to.'));
      console.error('something else', 1);
      expect(seen).toEqual([['something else', 1]]);
    } finally {
      console.error = original;
    }
  });
});
