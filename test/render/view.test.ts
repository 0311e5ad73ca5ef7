import { lastValueFrom, of, throwError, concat, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../src/errors.js';
import { catchTurnError, endedTurnView, initialTurnView, reduceTurn, turnState, type TurnView } from '../../src/render/view.js';
import type { Attachment, TurnEvent } from '../../src/port/events.js';

const events: TurnEvent[] = [
  { type: 'start', contextId: 'C' },
  { type: 'task', taskId: 'T', contextId: 'C' },
  { type: 'status', state: 'working', text: 'Thinking…' },
  { type: 'reconnecting', attempt: 1, delayMs: 10, cause: new A2AError({ kind: 'network', message: 'terminated' }) },
  { type: 'text', text: 'Hel', replace: false },
  { type: 'polling', reason: 'resubscribe-failed' },
  { type: 'text', text: 'lo', replace: false },
  { type: 'end', outcome: 'completed', text: 'Hello', contextId: 'C', taskId: 'T' },
];

describe('the store-facing view', () => {
  it('folds a turn into views, one per event', async () => {
    const views = await lastValueFrom(of(...events).pipe(turnState(), toArray()));
    expect(views).toHaveLength(events.length);
    expect(views[2]).toMatchObject({ phase: 'running', state: 'working', preview: 'Thinking…', taskId: 'T', contextId: 'C' });
    expect(views[3]).toMatchObject({ reconnecting: true });
    expect(views[4]).toMatchObject({ reconnecting: false, reply: 'Hel' });
    expect(views[4]!.preview).toBeUndefined();
    expect(views[5]).toMatchObject({ polling: true });
    expect(views.at(-1)).toEqual({
      phase: 'ended',
      reply: 'Hello',
      state: 'working',
      outcome: 'completed',
      contextId: 'C',
      taskId: 'T',
      reconnecting: false,
      polling: false,
    });
  });

  it('without coalesceMs (or with 0) hands over one view per event, as it comes', async () => {
    for (const options of [undefined, {}, { coalesceMs: 0 }]) {
      const views = await lastValueFrom(of(...events).pipe(turnState(options), toArray()));
      expect(views.map((view) => view.reply)).toEqual(['', '', '', '', 'Hel', 'Hel', 'Hello', 'Hello']);
    }
  });

  it('never mutates the view it is given', () => {
    const frozen = Object.freeze({ ...initialTurnView });
    let view = frozen;
    for (const event of events) {
      const next = reduceTurn(view, event);
      expect(next).not.toBe(view);
      view = Object.freeze(next);
    }
    expect(frozen).toEqual(initialTurnView);
  });

  it("an end whose reply is missing: the view says so (replyMissing), an ordinary end's view has none", () => {
    const cause = new A2AError({ kind: 'network', operation: 'get-task', message: 'socket hang up' });
    const ended = reduceTurn(initialTurnView, { type: 'end', outcome: 'completed', text: '', replyMissing: { reason: 'unread', cause } });
    expect(ended).toMatchObject({ phase: 'ended', outcome: 'completed', reply: '', replyMissing: { reason: 'unread', cause } });
    expect(reduceTurn(initialTurnView, events.at(-1)!)).not.toHaveProperty('replyMissing');
  });

  it('an end on a question: the view holds its interrupt, to answer; a cancel shown at once and any other end hold none', () => {
    const interrupt = { kind: 'input' as const, taskId: 't1', text: 'Which city?', generation: 3 };
    const asked = reduceTurn(initialTurnView, { type: 'end', outcome: 'input-required', text: 'Which city?', taskId: 't1', interrupt });
    expect(asked).toMatchObject({ phase: 'ended', outcome: 'input-required', interrupt });
    expect(endedTurnView(asked, 'canceled')).not.toHaveProperty('interrupt');
    expect(reduceTurn(asked, { type: 'end', outcome: 'completed', text: 'Paris' })).not.toHaveProperty('interrupt');
  });

  it('a replace replaces the reply', () => {
    const view = [
      { type: 'text', text: 'draft', replace: false },
      { type: 'text', text: 'final', replace: true },
    ].reduce((v, e) => reduceTurn(v, e as TurnEvent), initialTurnView);
    expect(view.reply).toBe('final');
  });

  it('keeps the sign-in request while auth-required, and drops it when the task moves on', () => {
    let view = reduceTurn(initialTurnView, { type: 'auth-required', text: 'Sign in at http://127.0.0.1/login' });
    expect(view.authRequired).toEqual({ text: 'Sign in at http://127.0.0.1/login' });
    view = reduceTurn(view, { type: 'status', state: 'auth-required' });
    expect(view.authRequired).toBeDefined();
    view = reduceTurn(view, { type: 'status', state: 'working' });
    expect(view.authRequired).toBeUndefined();
  });

  it('endedTurnView (a cancel shown at once): ended with the outcome, flags off, progress and activity cleared; the rest kept', () => {
    const attachments: Attachment[] = [{ kind: 'data', data: { a: 1 } }];
    const running: TurnView = Object.freeze({
      phase: 'running',
      reply: 'Hel',
      preview: 'Thinking…',
      attachments,
      activity: { kind: 'function_call', name: 'search' },
      state: 'auth-required',
      contextId: 'C',
      taskId: 'T',
      reconnecting: true,
      polling: true,
      authRequired: { text: 'Sign in' },
    });
    expect(endedTurnView(running, 'canceled')).toEqual({
      phase: 'ended',
      reply: 'Hel',
      attachments,
      state: 'auth-required',
      outcome: 'canceled',
      contextId: 'C',
      taskId: 'T',
      reconnecting: false,
      polling: false,
      authRequired: { text: 'Sign in' },
    });
  });

  it('catchTurnError turns an error into a last error event and completes', async () => {
    const failure = new A2AError({ kind: 'timeout', phase: 'turn', message: 'turn timed out after 10 ms' });
    const out = await lastValueFrom(
      concat(
        of<TurnEvent>(events[0]!),
        throwError(() => failure),
      ).pipe(catchTurnError(), toArray()),
    );
    expect(out).toEqual([events[0], { type: 'error', error: failure }]);
    const view = out.reduce(reduceTurn, initialTurnView);
    expect(view).toMatchObject({ phase: 'error', error: failure });
  });

  it('catchTurnError wraps a foreign error in an A2AError with its cause', async () => {
    const out = await lastValueFrom(throwError(() => new Error('boom')).pipe(catchTurnError(), toArray()));
    expect(out[0]).toMatchObject({ type: 'error', error: { kind: 'protocol', message: 'boom' } });
    expect((out[0] as { error: A2AError }).error.cause).toBeInstanceOf(Error);
  });
});
