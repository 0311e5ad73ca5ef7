import { fromRestErrorBody } from '@a2a-js/sdk/errors';
import { describe, expect, it } from 'vitest';
import { A2AError, naming } from '../../../src/errors.js';
import { parseRetryAfter, retryAfterOf } from '../../../src/sdk/http/retry-after.js';
import { classifySdkError } from '../../../src/sdk/wire/classify/sdk-errors.js';

const NOW = Date.parse('Tue, 01 Dec 2026 12:00:00 GMT');

describe('Retry-After', () => {
  it.each<[string | null, number | undefined]>([
    ['0', 0],
    ['1', 1_000],
    [' 120 ', 120_000],
    ['Tue, 01 Dec 2026 12:00:05 GMT', 5_000], // IMF-fixdate
    ['Tuesday, 01-Dec-26 12:00:05 GMT', 5_000], // RFC 850
    ['Tue, 01 Dec 2026 11:59:00 GMT', 0], // a date gone by: at once
    ['-1', undefined],
    ['1.5', undefined],
    ['soon', undefined],
    ['', undefined],
    [null, undefined],
  ])('%j is %j ms', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it('a huge number of seconds is read as the longest timer, not as "at once"', () => {
    expect(parseRetryAfter('99999999999', NOW)).toBe(2_147_483_647);
  });

  it('is read on a 429 or a 503 only', () => {
    const answer = (status: number) => new Response(null, { status, headers: { 'retry-after': '7' } });
    expect([429, 503, 500, 502, 301].map((status) => retryAfterOf(answer(status), NOW))).toEqual([
      7_000,
      7_000,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('the classifier puts it on the http error of a 429 or 503, with retryAt; never on another kind or status', () => {
    const site = { operation: 'send' as const, agent: 'http://127.0.0.1:9/', retryAfterMs: 2_000 };
    const before = Date.now();
    const busy = classifySdkError(fromRestErrorBody({ message: 'busy' }, { statusCode: 503 }), { ...site, status: 503 });
    expect(busy).toMatchObject({ kind: 'http', status: 503, retryable: true, retryAfterMs: 2_000 });
    expect(busy.retryAt).toBeGreaterThanOrEqual(before + 2_000);
    const failed = classifySdkError(fromRestErrorBody({ message: 'broken' }, { statusCode: 500 }), { ...site, status: 500 });
    expect(failed.retryAfterMs).toBeUndefined();
    const refused = classifySdkError(fromRestErrorBody({ message: 'no' }, { statusCode: 401 }), { ...site, status: 401 });
    expect([refused.kind, refused.retryAfterMs]).toEqual(['auth', undefined]);
  });

  it('an error made again keeps it, and it is in the error as JSON', () => {
    const error = new A2AError({ kind: 'http', status: 429, retryable: true, retryAfterMs: 1_500, retryAt: NOW + 1_500, message: 'busy' });
    expect(naming(error, 'http://127.0.0.1:9/', 'send')).toMatchObject({
      agent: 'http://127.0.0.1:9/',
      retryAfterMs: 1_500,
      retryAt: NOW + 1_500,
    });
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ kind: 'http', status: 429, retryAfterMs: 1_500, retryAt: NOW + 1_500 });
  });
});
