import { map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import type { Logger } from '../../../src/logger.js';
import type { CardSummary } from '../../../src/port/card.js';
import type { TaskPage } from '../../../src/port/port.js';
import { ev, task, testCard, type FakePortCall } from '../../../src/testing/index.js';
import { runTurn, type LadderOptions } from '../../../src/turn/turn.js';
import { a2aError, label, labels, marbles, withPolicy } from '../../helpers.js';

// A thread's first message waits for what it must settle (a task left waiting, a caller's task id, a
// rotated secret's conversation), but none of that needs the card: it starts beside the card.
// The card here takes 3 frames, as a cold agent's would; the thread's contextId is 'C'.
const page = (...tasks: ReturnType<typeof task>[]): TaskPage => ({ tasks });
const look: LadderOptions = { ...withPolicy({ lookupTimeoutMs: 5 }), lookForWaitingTask: true };
const message = { text: 'hi', contextId: 'C' };
const L = { ...labels, m: 'context C -> P1', g: 'task T0 gone (task-not-found)' };
const sent = (calls: FakePortCall[]) => calls.flatMap((c) => ('message' in c ? [[c.message.contextId, c.message.taskId ?? null]] : []));
const methods = (calls: FakePortCall[]) => calls.map((c) => c.method);

/** A logger that keeps its debug lines. */
function recording(): Logger & { lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const keep = (fields: Record<string, unknown>, text: string) => void lines.push({ ...fields, text });
  return { lines, debug: keep, info: keep, warn: keep, error: keep };
}

describe("a thread's first message: its lookups run beside the card", () => {
  it('the waiting-task lookup is asked with the card, and the message goes as soon as both have answered', () => {
    const calls = marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const card = cold('---(c|)', { c: testCard() });
      const listTasks = cold('--(l|)', { l: page(task('T1', 'input-required', { contextId: 'C' })) });
      const stream = cold('      -(m|)', { m: ev.message('ok') });
      const port = agent({ card, listTasks, stream });
      expectObservable(runTurn(port, message, look).pipe(map(label))).toBe('s---(hE|)', L);
      expectSubscriptions(listTasks.subscriptions).toBe('^-!');
      expectSubscriptions(stream.subscriptions).toBe('---^!');
      return port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'listTasks', 'stream']);
    expect(sent(calls)).toEqual([['C', 'T1']]);
  });

  it("a caller's task id is checked with the card (GetTask beside it)", () => {
    const calls = marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const card = cold('---(c|)', { c: testCard() });
      const getTask = cold('-(g|)', { g: task('T0', 'input-required', { contextId: 'C' }) });
      const stream = cold('    -(m|)', { m: ev.message('ok') });
      const port = agent({ card, getTask, stream });
      expectObservable(runTurn(port, { ...message, taskId: 'T0' }, { ...look, taskFromCaller: true }).pipe(map(label))).toBe('s---(hE|)', L);
      expectSubscriptions(getTask.subscriptions).toBe('^!');
      return port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'getTask', 'stream']);
    expect(sent(calls)).toEqual([['C', 'T0']]);
  });

  it("a rotated secret's conversation is looked for with the card, its note coming right after the card", () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const card = cold('---(c|)', { c: testCard() });
      const listTasks = [cold('-(l|)', { l: page() }), cold('-(l|)', { l: page(task('T', 'completed', { contextId: 'P1' })) })];
      const stream = cold('-(m|)', { m: ev.message('ok') });
      const port = agent({ card, listTasks, stream });
      expectObservable(runTurn(port, message, { ...withPolicy({ lookupTimeoutMs: 5 }), previousContexts: ['P1'] }).pipe(map(label))).toBe(
        's--m(hE|)',
        L,
      );
      return port.calls;
    });
    expect(sent(calls)).toEqual([['P1', null]]);
  });

  it("a lookup's bound counts from the card's arrival: a slow card does not use up the lookup's time", () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const card = cold('----(c|)', { c: testCard() });
      // Answers at 7: past lookupTimeoutMs (5) from the turn's start, within it from the card's arrival (4).
      const listTasks = cold('-------(l|)', { l: page(task('T1', 'input-required', { contextId: 'C' })) });
      const stream = cold('-(m|)', { m: ev.message('ok') });
      const port = agent({ card, listTasks, stream });
      expectObservable(runTurn(port, message, look).pipe(map(label))).toBe('s-------(hE|)', L);
      return port.calls;
    });
    expect(sent(calls)).toEqual([['C', 'T1']]);
  });

  it('a card that fails first is the turn\'s error: the lookup is left at once, and nothing is logged of it', () => {
    const logger = recording();
    const cardFailed = new A2AError({ kind: 'network', operation: 'card', message: 'card unreachable' });
    const calls = marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const card = cold<CardSummary>('--#', undefined, cardFailed);
      const listTasks = cold<TaskPage>('-----(l|)', { l: page() });
      const port = agent({ card, listTasks });
      expectObservable(runTurn(port, message, { ...look, logger }).pipe(map(label))).toBe('s-#', L, cardFailed);
      expectSubscriptions(listTasks.subscriptions).toBe('^-!');
      return port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'listTasks']);
    expect(logger.lines).toEqual([]);
  });

  it('a lookup that fails before the card has answered is logged once the card names the agent', () => {
    const logger = recording();
    const refused = new A2AError({ kind: 'protocol', operation: 'list-tasks', code: -32603, message: 'internal error' });
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const card = cold('---(c|)', { c: testCard({ url: 'http://127.0.0.1/agent-a/' }) });
      const listTasks = cold<TaskPage>('-#', undefined, refused);
      const stream = cold('-(m|)', { m: ev.message('ok') });
      const port = agent({ card, listTasks, stream });
      expectObservable(runTurn(port, message, { ...look, logger }).pipe(map(label))).toBe('s---(hE|)', L);
      return port.calls;
    });
    expect(sent(calls)).toEqual([['C', null]]);
    expect(logger.lines).toEqual([expect.objectContaining({ agent: 'http://127.0.0.1/agent-a/', operation: 'list-tasks' })]);
  });

  it("another thread's task found before the card has answered: the foreign-task error after the card, naming the agent", () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const card = cold('---(c|)', { c: testCard({ url: 'http://127.0.0.1/agent-a/' }) });
      const getTask = cold('-(g|)', { g: task('T0', 'input-required', { contextId: 'B' }) });
      const port = agent({ card, getTask });
      const foreign = a2aError({ kind: 'foreign-task', agent: 'http://127.0.0.1/agent-a/' });
      expectObservable(runTurn(port, { ...message, taskId: 'T0' }, { ...look, taskFromCaller: true }).pipe(map(label))).toBe('s--#', L, foreign);
      return port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'getTask']);
  });

  it("a card whose input modes refuse the message ends the turn at the card: the lookup is left, nothing is sent", () => {
    const calls = marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const card = cold('--(c|)', { c: testCard({ defaultInputModes: ['text/plain'] }) });
      const listTasks = cold<TaskPage>('-----(l|)', { l: page() });
      const port = agent({ card, listTasks });
      const files = [{ name: 'a.png', mediaType: 'image/png', bytes: new Uint8Array([1]) }];
      expectObservable(runTurn(port, { ...message, files }, look).pipe(map(label))).toBe('s-#', L, a2aError({ kind: 'input' }));
      expectSubscriptions(listTasks.subscriptions).toBe('^-!');
      return port.calls;
    });
    expect(sent(calls)).toEqual([]);
  });
});
