import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventually } from './eventually.js';

// On fake timers: the wait's own clock is what is under test, and no test here should take real time.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('eventually', () => {
  it('resolves once the check holds, looking again every 20 ms until then', async () => {
    let looks = 0;
    let done = false;
    void eventually(() => ++looks === 3).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(39);
    expect([looks, done]).toEqual([2, false]);
    await vi.advanceTimersByTimeAsync(1);
    expect([looks, done]).toEqual([3, true]);
  });

  it('rejects once the time is up, naming the check, and stops looking', async () => {
    let looks = 0;
    const never = () => ++looks < 0;
    const outcome = eventually(never, 50).then(
      () => 'resolved',
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(200);
    expect(await outcome).toMatchObject({ message: expect.stringMatching(/^not met within 50 ms: .*looks < 0/) });
    expect(looks).toBe(4); // at 0, 20, 40 and 60 ms: the first look past 50 ms is the last
    await vi.advanceTimersByTimeAsync(200);
    expect(looks).toBe(4);
  });
});
