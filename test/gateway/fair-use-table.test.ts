/**
 * The gateway's fair-use table (examples/gateway/fair-use.mjs) on a clock the test moves: a person's
 * messages in any minute and streams at once, what a refusal says (429, Retry-After in whole seconds
 * rounded up, X-Message-Taken: no, the limit), that a refusal costs nothing, that one person's flood
 * leaves another's allowance alone, and that the table of people stays bounded whoever comes. Then
 * chaos: random people, kinds, releases and pauses, the limits checked after every step.
 */
import { describe, expect, it } from 'vitest';
import { FAIR_USE_ENV, fairUse, fairUseOf, type Admitted } from '../../examples/gateway/fair-use.mjs';
import type { Refusal } from '../../examples/gateway/request.mjs';

/** A table on a clock the test moves, and its log. */
function table(options: { messagesPerMinute?: number; turns?: number; maxPeople?: number } = {}) {
  const clock = { now: 1_000_000 };
  const log: string[] = [];
  const fair = fairUse({ ...options, now: () => clock.now, log: (line) => log.push(line) });
  return { fair, clock, log };
}

/** What `admit` threw (the test fails when it admitted). */
function refusalOf(call: () => Admitted): Refusal {
  try {
    call();
  } catch (error) {
    return error as Refusal;
  }
  throw new Error('admitted');
}

describe('messages per minute', () => {
  it('N in a minute are taken, the next is 429 until the oldest leaves the minute; Retry-After rounded up', () => {
    const { fair, clock } = table({ messagesPerMinute: 3, turns: 0 });
    fair.admit('alice', 'message');
    clock.now += 20_700;
    fair.admit('alice', 'message');
    fair.admit('alice', 'message');
    const refused = refusalOf(() => fair.admit('alice', 'message'));
    expect(refused.status).toBe(429);
    // The oldest leaves the minute in 39.3 s: 40, never 39 (a client back at 39 would be refused again).
    expect(refused.headers).toEqual({ 'Retry-After': '40', 'X-Message-Taken': 'no' });
    expect(refused.details).toEqual({ limit: 'messages', retryAfter: 40 });
    expect(refused.message).toBe('you have sent 3 messages in the last minute here; try again in 40 s');
    clock.now += 39_299;
    expect(refusalOf(() => fair.admit('alice', 'message')).headers['Retry-After']).toBe('1');
    clock.now += 1;
    fair.admit('alice', 'message');
    // The two taken at 20.7 s leave the minute 20.7 s from now: 21.
    expect(refusalOf(() => fair.admit('alice', 'message')).details.retryAfter).toBe(21);
  });

  it('a refused message costs nothing: a thousand refused, the next minute is whole again', () => {
    const { fair, clock } = table({ messagesPerMinute: 2, turns: 0 });
    fair.admit('alice', 'message');
    fair.admit('alice', 'message');
    for (let i = 0; i < 1_000; i++) {
      clock.now += 50;
      expect(refusalOf(() => fair.admit('alice', 'message')).status).toBe(429);
    }
    clock.now = 1_000_000 + 60_000;
    fair.admit('alice', 'message');
    fair.admit('alice', 'message');
    expect(refusalOf(() => fair.admit('alice', 'message')).status).toBe(429);
  });

  it("one person's flood leaves another's minute whole; a resume is not a message", () => {
    const { fair } = table({ messagesPerMinute: 5, turns: 0 });
    for (let i = 0; i < 5; i++) fair.admit('mallory', 'message');
    for (let i = 0; i < 100; i++) refusalOf(() => fair.admit('mallory', 'message'));
    for (let i = 0; i < 20; i++) fair.admit('mallory', 'resume');
    for (let i = 0; i < 5; i++) fair.admit('bob', 'message');
    expect(fair.stats()).toEqual({ people: 2, refused: 100 });
  });

  it('the first refusal of a run is logged, the rest are not, until one is taken again', () => {
    const { fair, clock, log } = table({ messagesPerMinute: 1, turns: 0 });
    fair.admit('al\nice', 'message');
    for (let i = 0; i < 50; i++) refusalOf(() => fair.admit('al\nice', 'message'));
    clock.now += 60_000;
    fair.admit('al\nice', 'message');
    refusalOf(() => fair.admit('al\nice', 'message'));
    expect(log).toEqual(['"al\\nice": over 1 messages a minute; refused (429)', '"al\\nice": over 1 messages a minute; refused (429)']);
  });
});

describe('turns at once', () => {
  it('N streams (messages and resumes) are taken, the next is 429 (Retry-After: 1) until one is released; released twice frees one', () => {
    const { fair } = table({ messagesPerMinute: 0, turns: 3 });
    const open = [fair.admit('alice', 'message'), fair.admit('alice', 'resume'), fair.admit('alice', 'message')];
    const refused = refusalOf(() => fair.admit('alice', 'resume'));
    expect([refused.status, refused.headers, refused.details]).toEqual([
      429,
      { 'Retry-After': '1', 'X-Message-Taken': 'no' },
      { limit: 'turns', retryAfter: 1 },
    ]);
    open[1]!.release();
    open[1]!.release();
    const again = fair.admit('alice', 'message');
    expect(refusalOf(() => fair.admit('alice', 'message')).details.limit).toBe('turns');
    again.release();
    fair.admit('bob', 'message');
  });

  it("a message refused for the person's turns uses none of their minute", () => {
    const { fair } = table({ messagesPerMinute: 2, turns: 1 });
    const first = fair.admit('alice', 'message');
    for (let i = 0; i < 10; i++) expect(refusalOf(() => fair.admit('alice', 'message')).details.limit).toBe('turns');
    first.release();
    fair.admit('alice', 'message').release();
    expect(refusalOf(() => fair.admit('alice', 'message')).details.limit).toBe('messages');
  });

  it('0 turns a limit off; both off, nothing is kept', () => {
    const off = table({ messagesPerMinute: 0, turns: 0 });
    for (let i = 0; i < 10_000; i++) off.fair.admit(`u${i % 7}`, 'message');
    expect(off.fair.stats()).toEqual({ people: 0, refused: 0 });
    const rateOnly = table({ messagesPerMinute: 2, turns: 0 });
    for (let i = 0; i < 2; i++) rateOnly.fair.admit('alice', 'message');
    expect(refusalOf(() => rateOnly.fair.admit('alice', 'message')).details.limit).toBe('messages');
    for (let i = 0; i < 100; i++) rateOnly.fair.admit('alice', 'resume');
  });

  it('the defaults: 30 a minute, 4 at once', () => {
    const { fair } = table();
    const open = Array.from({ length: 4 }, () => fair.admit('alice', 'message'));
    expect(refusalOf(() => fair.admit('alice', 'message')).details.limit).toBe('turns');
    for (let i = 0; i < 26; i++) {
      open[0]!.release();
      open[0] = fair.admit('alice', 'message');
    }
    open[0]!.release();
    expect(refusalOf(() => fair.admit('alice', 'message')).details.limit).toBe('messages');
  });
});

describe('the table of people', () => {
  it('a person idle for a minute is forgotten as requests come; a person with a stream open never is', () => {
    const { fair, clock } = table({ messagesPerMinute: 10, turns: 2 });
    const held = fair.admit('holder', 'message');
    for (let i = 0; i < 1_000; i++) fair.admit(`person-${i}`, 'message').release();
    expect(fair.stats().people).toBe(1_001);
    clock.now += 60_000;
    // Each request sweeps a few from the oldest seen: a few dozen requests forget the thousand.
    for (let i = 0; i < 40; i++) fair.admit('bob', 'resume').release();
    expect(fair.stats().people).toBe(2); // the holder and bob
    // The holder's turn is still counted: one more is taken, then its limit.
    fair.admit('holder', 'resume');
    expect(refusalOf(() => fair.admit('holder', 'resume')).details.limit).toBe('turns');
    held.release();
  });

  it('at maxPeople someone forgettable makes room; no one is: 503 for a newcomer, and nobody is given a fresh minute', () => {
    const { fair, clock } = table({ messagesPerMinute: 1, turns: 1, maxPeople: 50 });
    // A hundred thousand people, one message each, 40 a minute: all taken, never more than 50 kept.
    for (let i = 0; i < 100_000; i++) {
      clock.now += 1_500;
      fair.admit(`p${i}`, 'message').release();
      expect(fair.stats().people).toBeLessThanOrEqual(50);
    }
    clock.now += 60_000;
    const open = Array.from({ length: 25 }, (_, i) => fair.admit(`busy${i}`, 'message'));
    for (let i = 0; i < 25; i++) fair.admit(`sent${i}`, 'message').release();
    const full = refusalOf(() => fair.admit('newcomer', 'message'));
    expect([full.status, full.headers]).toEqual([503, { 'Retry-After': '1', 'X-Message-Taken': 'no' }]);
    // Nobody was forgotten: each is still at their limit (a stream open, or a message this minute).
    for (let i = 0; i < 25; i++) expect(refusalOf(() => fair.admit(`busy${i}`, 'resume')).details.limit).toBe('turns');
    for (let i = 0; i < 25; i++) expect(refusalOf(() => fair.admit(`sent${i}`, 'message')).details.limit).toBe('messages');
    open[17]!.release();
    expect(refusalOf(() => fair.admit('newcomer', 'message')).status).toBe(503); // busy17 sent a message this minute
    clock.now += 60_000;
    fair.admit('newcomer', 'message');
    expect(fair.stats().people).toBeLessThanOrEqual(50);
  });
});

describe('chaos: random people, kinds, releases and pauses', () => {
  /** A small seeded generator (mulberry32): a failure is reproduced by its seed. */
  const seeded = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };

  for (const seed of [1, 7, 42, 2026]) {
    it(`seed ${seed}: never more than N in any minute nor M at once per person; what is refused says a true Retry-After`, () => {
      const random = seeded(seed);
      const limits = { messagesPerMinute: 1 + Math.floor(random() * 8), turns: 1 + Math.floor(random() * 4), maxPeople: 4 };
      const { fair, clock } = table(limits);
      const people = ['a', 'b', 'c', 'd', 'e', 'f'];
      const open = new Map<string, Admitted[]>(people.map((p) => [p, []]));
      const taken = new Map<string, number[]>(people.map((p) => [p, []]));
      for (let step = 0; step < 5_000; step++) {
        clock.now += Math.floor(random() ** 3 * 20_000);
        const person = people[Math.floor(random() * people.length)]!;
        const mine = open.get(person)!;
        if (random() < 0.4 && mine.length > 0) {
          mine.splice(Math.floor(random() * mine.length), 1)[0]!.release();
          continue;
        }
        const kind = random() < 0.7 ? 'message' : 'resume';
        try {
          mine.push(fair.admit(person, kind));
          if (kind === 'message') taken.get(person)!.push(clock.now);
        } catch (error) {
          const refusal = error as Refusal;
          if (refusal.status === 503) continue; // every known person has a stream open
          expect(refusal.status).toBe(429);
          const seconds = Number(refusal.headers['Retry-After']);
          if (refusal.details.limit === 'messages') {
            // Refused only with N taken in the last minute, and the oldest of them leaves it within Retry-After.
            const recent = taken.get(person)!.filter((at) => at > clock.now - 60_000);
            expect(recent.length).toBe(limits.messagesPerMinute);
            expect(recent[0]! + 60_000 - clock.now).toBeLessThanOrEqual(seconds * 1000);
            expect(recent[0]! + 60_000 - clock.now).toBeGreaterThan((seconds - 1) * 1000);
          } else {
            expect(mine.length).toBe(limits.turns);
          }
        }
        expect(mine.length).toBeLessThanOrEqual(limits.turns);
        const times = taken.get(person)!;
        const inMinute = times.filter((at) => at > clock.now - 60_000).length;
        expect(inMinute).toBeLessThanOrEqual(limits.messagesPerMinute);
        expect(fair.stats().people).toBeLessThanOrEqual(limits.maxPeople);
      }
    });
  }
});

describe("a replica's command line", () => {
  it('takes each flag, else its environment variable; a bad value is an error naming both', () => {
    expect(fairUseOf({}, {})).toEqual({});
    expect(fairUseOf({ 'messages-per-minute': '12' }, { [FAIR_USE_ENV.messagesPerMinute]: '99', [FAIR_USE_ENV.turns]: '0' })).toEqual({
      messagesPerMinute: 12,
      turns: 0,
    });
    expect(() => fairUseOf({ 'turns-per-person': '-1' }, {})).toThrow(/--turns-per-person \(or A4H_GATEWAY_TURNS_PER_PERSON\)/);
    expect(() => fairUseOf({}, { [FAIR_USE_ENV.messagesPerMinute]: '1e3' })).toThrow(/whole number/);
  });
});
