import fc from 'fast-check';
import { asyncScheduler, Observable, timer, type Subscription } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { AgentLimit } from '../../src/client/agent-limit.js';
import { isA2AError } from '../../src/errors.js';
import type { TurnEvent } from '../../src/port/events.js';

/** One turn of a run: when it comes, how long it runs, whether it fails, when its caller leaves, its cancel's time. */
interface Plan {
  arrival: number;
  duration: number;
  fails: boolean;
  /** Frames after its arrival when its caller leaves; none: it stays to the end. */
  leaveAfter: number | undefined;
  /** Frames its CancelTask takes when it is left running; none: it leaves no cancel. */
  cancelMs: number | undefined;
}

const plan: fc.Arbitrary<Plan> = fc.record({
  arrival: fc.nat(2_500),
  duration: fc.nat(400),
  fails: fc.boolean(),
  leaveAfter: fc.option(fc.nat(600), { nil: undefined }),
  cancelMs: fc.option(fc.nat(100), { nil: undefined }),
});

/** What a run saw: the agent's count at its highest, the starts in order, what each turn was told. */
interface Seen {
  highest: number;
  starts: { turn: number; at: number }[];
  places: number[][];
  refused: number[];
  otherErrors: unknown[];
}

/** The turns of `plans` through one limit, on virtual time; the agent counts a turn from its start until it ended or its cancel did. */
function runPlans(plans: readonly Plan[], limits: { maxInFlight: number; maxStartsPerSecond: number; maxQueued: number }): Seen {
  const seen: Seen = { highest: 0, starts: [], places: plans.map(() => []), refused: [], otherErrors: [] };
  let atAgent = 0;
  new TestScheduler(() => undefined).run(() => {
    const limit = new AgentLimit(limits, 'http://127.0.0.1/');
    const turnOf = (index: number, p: Plan) => (hold: (cancel: Subscription) => void) =>
      new Observable<TurnEvent>((subscriber) => {
        atAgent++;
        seen.highest = Math.max(seen.highest, atAgent);
        seen.starts.push({ turn: index, at: asyncScheduler.now() });
        subscriber.next({ type: 'start' });
        let ended = false;
        const work = asyncScheduler.schedule(() => {
          ended = true;
          if (p.fails) subscriber.error(new Error('the agent failed'));
          else subscriber.complete();
        }, p.duration);
        return () => {
          work.unsubscribe();
          if (ended || p.cancelMs === undefined) atAgent--;
          else {
            const cancel = timer(p.cancelMs).subscribe();
            cancel.add(() => atAgent--);
            hold(cancel);
          }
        };
      });
    plans.forEach((p, index) => {
      asyncScheduler.schedule(() => {
        const subscription = limit.gate(turnOf(index, p)).subscribe({
          next: (event) => {
            if (event.type === 'queued') seen.places[index]!.push(event.place);
          },
          error: (error: unknown) => {
            if (isA2AError(error, 'queue-full')) seen.refused.push(index);
            else if (!(error instanceof Error && error.message === 'the agent failed')) seen.otherErrors.push(error);
          },
        });
        if (p.leaveAfter !== undefined) asyncScheduler.schedule(() => subscription.unsubscribe(), p.leaveAfter);
      }, p.arrival);
    });
  });
  return seen;
}

describe("one agent's limit, over random arrivals, durations, failures and callers leaving", () => {
  it('never has more in flight than the bound (cancels counted), starts in the order turns came, within the rate, and starts every turn that stayed', () => {
    fc.assert(
      fc.property(
        fc.array(plan, { maxLength: 40 }),
        fc.integer({ min: 1, max: 5 }),
        fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
        fc.integer({ min: 0, max: 40 }),
        (plans, maxInFlight, perSecond, maxQueued) => {
          const seen = runPlans(plans, { maxInFlight, maxStartsPerSecond: perSecond ?? Infinity, maxQueued });
          expect(seen.otherErrors).toEqual([]);
          expect(seen.highest).toBeLessThanOrEqual(maxInFlight);
          // Arrival order: by time, then by the order they were subscribed in (the plans' order within a frame).
          const order = plans.map((p, index) => ({ index, arrival: p.arrival })).sort((a, b) => a.arrival - b.arrival || a.index - b.index);
          const rank = new Map(order.map((o, position) => [o.index, position]));
          const started = seen.starts.map((s) => rank.get(s.turn)!);
          expect(started).toEqual([...started].sort((a, b) => a - b));
          if (perSecond !== undefined) {
            for (let k = perSecond; k < seen.starts.length; k++) expect(seen.starts[k]!.at - seen.starts[k - perSecond]!.at).toBeGreaterThanOrEqual(1_000);
          }
          // Every turn whose caller stayed and that was not refused ran; a refused one never did, and never waited.
          const ran = new Set(seen.starts.map((s) => s.turn));
          plans.forEach((p, index) => {
            if (seen.refused.includes(index)) {
              expect(ran.has(index)).toBe(false);
              expect(seen.places[index]).toEqual([]);
            } else if (p.leaveAfter === undefined) expect(ran.has(index)).toBe(true);
          });
          // A waiting turn's place only moves up, from at most maxQueued.
          for (const places of seen.places) {
            expect(places.every((place, k) => place >= 1 && place <= maxQueued && (k === 0 || place < places[k - 1]!))).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
