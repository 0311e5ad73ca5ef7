import { asyncScheduler, map, take, type MonoTypeOperatorFunction, type SchedulerAction, type SchedulerLike, type Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../src/errors.js';
import type { TurnErrorEvent, TurnEvent } from '../../src/port/events.js';
import { threadTranscript, type Transcript } from '../../src/render/transcript.js';
import { catchTurnError, turnState, type TurnView } from '../../src/render/view.js';
import { marbles } from '../helpers.js';

/** The window of these tests: 10 frames (10 virtual ms). */
const WINDOW = 10;

/** A turn's events by letter: start, chunks a…d, the end of the reply "abcd". */
const events: Record<string, TurnEvent> = {
  s: { type: 'start' },
  a: { type: 'text', text: 'a', replace: false },
  b: { type: 'text', text: 'b', replace: false },
  c: { type: 'text', text: 'c', replace: false },
  d: { type: 'text', text: 'd', replace: false },
  E: { type: 'end', outcome: 'completed', text: 'abcd' },
};

/** One short line per view: its phase and reply. */
const view = (v: TurnView): string => `${v.phase} "${v.reply}"`;
const views: Record<string, string> = {
  S: 'running ""',
  A: 'running "a"',
  B: 'running "ab"',
  C: 'running "abc"',
  D: 'running "abcd"',
  F: 'ended "abcd"',
  X: 'error "a"',
};

/**
 * `scheduler`, counting the actions it holds that have neither run nor been cancelled: a timer left
 * behind shows as one.
 */
function counted(scheduler: SchedulerLike): SchedulerLike & { readonly pending: number; readonly fired: number } {
  const pending = new Set<object>();
  let fired = 0;
  return {
    now: () => scheduler.now(),
    schedule<S>(work: (this: SchedulerAction<S>, state?: S) => void, delay?: number, state?: S): Subscription {
      const token = {};
      pending.add(token);
      const action = scheduler.schedule<S>(
        function (this: SchedulerAction<S>, s?: S) {
          pending.delete(token);
          fired++;
          work.call(this, s);
        },
        delay,
        state,
      );
      action.add(() => pending.delete(token));
      return action;
    },
    get pending() {
      return pending.size;
    },
    get fired() {
      return fired;
    },
  };
}

/**
 * Asserts that the turn `turn` draws, coalesced on a {@link counted} clock and passed through
 * `leave` (by default all of it), hands over the views `expected` draws. Returns the clock, to read
 * what it holds after the run.
 */
function viewsOnCountedClock(turn: string, expected: string, leave: MonoTypeOperatorFunction<TurnView> = (views$) => views$): ReturnType<typeof counted> {
  return marbles(({ cold, expectObservable }) => {
    const clock = counted(asyncScheduler);
    expectObservable(cold(turn, events).pipe(turnState({ coalesceMs: WINDOW, scheduler: clock }), leave, map(view))).toBe(expected, views);
    return clock;
  });
}

describe('turnState({ coalesceMs })', () => {
  it('hands over the first view at once, then at most one per window: the latest, at its end; after a quiet window, at once again', () => {
    marbles(({ cold, expectObservable }) => {
      const turn = cold('  s-a-b-c---------d------------------ a', events);
      const expected = '   S---------C---------D--------------A';
      // The last chunk repeats 'a' only to show a lone event after a quiet window: the reply is then "abcda".
      expectObservable(turn.pipe(turnState({ coalesceMs: WINDOW }), map(view))).toBe(expected, { ...views, A: 'running "abcda"' });
    });
  });

  it("catchTurnError's error view ends the turn at once", () => {
    const failure = new A2AError({ kind: 'network', message: 'down' });
    marbles(({ cold, expectObservable }) => {
      const turn = cold<TurnEvent>('s-a-#', events, failure);
      const expected = '            S---(X|)';
      expectObservable(turn.pipe(catchTurnError(), turnState({ coalesceMs: WINDOW }), map(view))).toBe(expected, views);
    });
  });

  const failure = new A2AError({ kind: 'network', message: 'down' });
  // Each case: the turn's events, the views handed over, and the error they end with (if any).
  const cases: { title: string; turn: string; expected: string; error?: unknown }[] = [
    {
      title: 'hands over the end at once, and the view pending in the window never comes after it',
      // The source goes on after the end (as a thread's next turn would): a stale view at frame 10 would show.
      turn: '    s-a-b-E---------------',
      expected: 'S-----F---------------',
    },
    {
      title: 'hands over an error view at once, and the view pending in the window never comes after it',
      // The error event (catchTurnError's), and the source still open: a stale view at frame 10 would show.
      turn: '    s-a-x-----------',
      expected: 'S---X-----------',
    },
    {
      title: 'on completion hands over the pending view at once, then completes',
      turn: '    s-a-b|',
      expected: 'S----(B|)',
    },
    {
      title: 'on an error (no catchTurnError) hands over the pending view, then the error',
      turn: '    s-a-b#',
      expected: 'S----(B#)',
      error: failure,
    },
  ];
  for (const { title, turn: diagram, expected, error } of cases) {
    it(title, () => {
      marbles(({ cold, expectObservable }) => {
        const turn = cold<TurnEvent | TurnErrorEvent>(diagram, { ...events, x: { type: 'error', error: failure } }, failure);
        expectObservable(turn.pipe(turnState({ coalesceMs: WINDOW }), map(view))).toBe(expected, views, error);
      });
    });
  }

  it('leaves no timer behind when unsubscribed in a window, and unsubscribes the turn', () => {
    let pendingAfter = -1;
    const scheduler = marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const clock = counted(asyncScheduler);
      const turn = cold('  s-a-b-c---', events);
      const turnSubs = '   ^---!';
      const unsub = '      ^---!';
      const expected = '   S----';
      expectObservable(turn.pipe(turnState({ coalesceMs: WINDOW, scheduler: clock }), map(view)), unsub).toBe(expected, views);
      expectSubscriptions(turn.subscriptions).toBe(turnSubs);
      asyncScheduler.schedule(() => (pendingAfter = clock.pending), 5);
      return clock;
    });
    expect(pendingAfter).toBe(0);
    expect(scheduler.fired).toBe(0);
  });

  it('leaves no timer behind when the subscriber leaves on the first view', () => {
    const clock = viewsOnCountedClock('  -s-a-b---', '   -(S|)', take(1));
    expect(clock.pending).toBe(0);
    expect(clock.fired).toBe(0);
  });

  it('leaves no timer behind when the turn ends', () => {
    const clock = viewsOnCountedClock('  s-a-(E|)', '   S---(F|)');
    expect(clock.pending).toBe(0);
    expect(clock.fired).toBe(0);
  });
});

describe('threadTranscript(run, { coalesceMs })', () => {
  /** One short line per transcript: each exchange's phase and reply, and whether a turn runs. */
  const transcript = (t: Transcript): string =>
    `${t.turns.map((turn) => `${turn.user}: ${view(turn.view)}`).join(' / ')}${t.busy ? ' (busy)' : ''}`;

  it('across two turns: each turn starts at once, is coalesced, and ends at once with nothing stale after', () => {
    marbles(({ cold, expectObservable }) => {
      const messages = cold('x-y|', { x: 'one', y: 'two' });
      const first = cold('   s-a-b-c-------E|', events);
      const second = cold('                 s-a-E|', { ...events, E: { type: 'end', outcome: 'completed', text: 'a' } as TurnEvent });
      const expected = '     (eS) 6ms C 3ms FG 3ms H|';
      const run = (text: string) => (text === 'one' ? first : second);
      expectObservable(messages.pipe(threadTranscript(run, { coalesceMs: WINDOW }), map(transcript))).toBe(expected, {
        e: '',
        S: 'one: running "" (busy)',
        C: 'one: running "abc" (busy)',
        F: 'one: ended "abcd"',
        G: 'one: ended "abcd" / two: running "" (busy)',
        H: 'one: ended "abcd" / two: ended "a"',
      });
    });
  });
});
