import { describe, expect, it } from 'vitest';
import { handles } from '../fixtures/handles.js';

describe('handles', () => {
  it('counts each live handle of a matching type (timers and sockets by default) and leaves other types out', () => {
    const timers = (types?: RegExp): number => handles(types).get('Timeout') ?? 0;
    const before = timers(/^Timeout$/);
    const started = [setTimeout(() => undefined, 60_000), setTimeout(() => undefined, 60_000)];
    expect(timers(/^Timeout$/)).toBe(before + 2);
    expect(timers()).toBe(before + 2);
    expect(handles(/^TCP/).has('Timeout')).toBe(false);
    started.forEach(clearTimeout);
    expect(timers(/^Timeout$/)).toBe(before);
  });
});
