import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { A2AError } from '../src/errors.js';
import { createFakePort } from '../src/testing/index.js';
import { backoffDelay, DEFAULT_POLICY, resolvePolicy, type TurnPolicyInput } from '../src/turn/policy.js';
import { runTurn } from '../src/turn/turn.js';

describe('the policy', () => {
  it('the client page (docs/client.md) documents exactly the defaults', () => {
    const page = readFileSync(new URL('../docs/client.md', import.meta.url), 'utf8');
    const section = page.slice(page.indexOf('## The policy'));
    const documented = new Map<string, (number | boolean | string)[]>();
    for (const [, names, values] of section.matchAll(/^\| `([^|]+)` \| ([\d ,.]+|true|false|`'[\w-]+'`) \|/gm)) {
      const value = (): (number | boolean | string)[] => {
        if (values === 'true' || values === 'false') return [values === 'true'];
        if (values!.startsWith('`')) return [values!.slice(2, -2)];
        return values!.split(',').map((v) => Number(v.replace(/ /g, '')));
      };
      documented.set(names!.replace(/`/g, ''), value());
    }
    const flat = (prefix: string, value: object): [string, number | boolean | string][] =>
      Object.entries(value).flatMap(([key, v]) =>
        typeof v === 'object' ? flat(`${prefix}${key}.`, v) : [[`${prefix}${key}`, v as number | boolean | string]],
      );
    const actual = new Map(flat('', DEFAULT_POLICY));
    for (const [names, values] of documented) {
      const [first, ...rest] = names.split(', ');
      const prefix = first!.includes('.') ? first!.slice(0, first!.indexOf('.') + 1) : '';
      const keys = [first!, ...rest.map((r) => prefix + r)];
      expect(
        keys.map((k) => actual.get(k)),
        names,
      ).toEqual(values);
      for (const k of keys) actual.delete(k);
    }
    expect([...actual.keys()], 'options missing from the docs/client.md table').toEqual([]);
  });

  it('keeps the defaults of what a partial nested option leaves out', () => {
    const policy = resolvePolicy({ reconnect: { maxAttempts: 1 }, idleTimeoutMs: 5 });
    expect(policy.reconnect).toEqual({ ...DEFAULT_POLICY.reconnect, maxAttempts: 1 });
    expect(policy.idleTimeoutMs).toBe(5);
    expect(policy.poll).toEqual(DEFAULT_POLICY.poll);
  });

  it.each<[TurnPolicyInput, string]>([
    [{ idleTimeoutMs: -1 }, 'idleTimeoutMs'],
    [{ idleTimeoutMs: 1.5 }, 'idleTimeoutMs'],
    [{ reconnect: { jitter: 2 } }, 'reconnect.jitter'],
    [{ poll: { factor: 0.5 } }, 'poll.factor'],
    [{ turnTimeoutMs: Number.POSITIVE_INFINITY }, 'turnTimeoutMs'],
    [{ sendTimeoutMs: 3e9 }, 'sendTimeoutMs'],
  ])('refuses %j with a config error naming %s', (input, field) => {
    let error: unknown;
    try {
      resolvePolicy(input);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(A2AError);
    expect(error).toMatchObject({ kind: 'config', retryable: false });
    expect((error as Error).message).toContain(field);
  });

  it('says what is wrong in words', () => {
    const message = (input: TurnPolicyInput) => {
      try {
        resolvePolicy(input);
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    };
    expect(message({ reconnect: { jitter: 2 } })).toBe('invalid turn option reconnect.jitter: it must be at most 1');
    expect(message({ idleTimeoutMs: 1.5 })).toBe('invalid turn option idleTimeoutMs: it must be an integer');
    expect(message({ idleTimeoutMs: 0 })).toBe('invalid turn option idleTimeoutMs: it must be more than 0');
  });

  it('refuses a reconnect budget shorter than the idle gap that breaks a stream; unset, it follows a longer idle gap', () => {
    expect(() => resolvePolicy({ idleTimeoutMs: 400_000, reconnect: { maxElapsedMs: 300_000 } })).toThrow(
      'invalid turn option reconnect.maxElapsedMs: it is 300000, shorter than idleTimeoutMs (400000); it must not be',
    );
    expect(resolvePolicy({ idleTimeoutMs: 400_000 }).reconnect.maxElapsedMs).toBe(400_000);
    expect(resolvePolicy({ idleTimeoutMs: 1_000 }).reconnect.maxElapsedMs).toBe(300_000);
    expect(() => resolvePolicy({ idleTimeoutMs: 400_000, reconnect: { maxElapsedMs: 400_000 } })).not.toThrow();
    expect(() => resolvePolicy({ idleTimeoutMs: 10, reconnect: { maxElapsedMs: 9 } })).toThrow(expect.objectContaining({ kind: 'config' }));
  });

  it('a bad option fails the turn after start and before any I/O', () => {
    const port = createFakePort({});
    const events: unknown[] = [];
    let error: unknown;
    runTurn(port, { text: 'hi' }, { policy: { cardTimeoutMs: 0 } }).subscribe({ next: (e) => events.push(e), error: (e) => (error = e) });
    expect(events).toEqual([{ type: 'start' }]);
    expect(error).toMatchObject({ kind: 'config' });
    expect(port.calls).toEqual([]);
  });
});

describe('backoff', () => {
  const backoffArb = fc.record({
    initialDelayMs: fc.integer({ min: 1, max: 10_000 }),
    factor: fc.double({ min: 1, max: 10, noNaN: true }),
    maxDelayMs: fc.integer({ min: 1, max: 100_000 }),
    jitter: fc.double({ min: 0, max: 1, noNaN: true }),
  });

  it('without jitter, is monotone in the attempt and never above the cap', () => {
    fc.assert(
      fc.property(backoffArb, fc.integer({ min: 1, max: 60 }), (backoff, attempt) => {
        const a = backoffDelay(backoff, attempt, () => 0);
        const b = backoffDelay(backoff, attempt + 1, () => 0);
        expect(b).toBeGreaterThanOrEqual(a);
        expect(b).toBeLessThanOrEqual(Math.max(backoff.maxDelayMs, 0));
      }),
    );
  });

  it('jitter takes off at most its fraction of the delay', () => {
    fc.assert(
      fc.property(backoffArb, fc.integer({ min: 1, max: 60 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (backoff, attempt, r) => {
        const full = backoffDelay(backoff, attempt, () => 0);
        const jittered = backoffDelay(backoff, attempt, () => r);
        expect(jittered).toBeLessThanOrEqual(full);
        expect(jittered).toBeGreaterThanOrEqual(Math.floor(full * (1 - backoff.jitter)) - 1);
      }),
    );
  });

  it('grows exponentially from the initial delay', () => {
    const backoff = { initialDelayMs: 100, factor: 2, maxDelayMs: 1_000, jitter: 0.5 };
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(backoff, n, () => 0))).toEqual([100, 200, 400, 800, 1_000]);
    expect(backoffDelay(backoff, 2, () => 0.5)).toBe(150);
  });
});
