import { describe, expect, it } from 'vitest';
import type { EndEvent, TurnEvent, UsageEvent } from '../../src/port/events.js';
import type { AgentEvent, AgentMessage, Artifact, Task } from '../../src/port/types.js';
import { exchangeOf } from '../../src/render/exchange.js';
import { TurnRenderer, type TaskFacts } from '../../src/render/renderer.js';
import { initialTurnView, reduceTurn } from '../../src/render/view.js';

// A turn's usage through the renderer: each report counted once whatever repeats it, the task's own total the
// turn's, garbage ignored, and the view and the history exchange keeping it.

const facts: TaskFacts = { taskId: 'T', contextId: 'C', state: 'completed', messageOnly: false };

/** The turn's events for `signals` (then its end). */
function render(signals: AgentEvent[], task: TaskFacts = facts): TurnEvent[] {
  const renderer = new TurnRenderer(task);
  return [...signals.flatMap((signal) => renderer.push(signal)), ...renderer.finish()];
}
const usageEvents = (events: TurnEvent[]) => events.filter((e): e is UsageEvent => e.type === 'usage');
const endOf = (events: TurnEvent[]) => events.at(-1) as EndEvent;
/** A usage's numbers (its `reported` left out). */
const n = (usage: { reported?: unknown } | undefined) => {
  if (usage === undefined) return undefined;
  const { reported: _reported, ...rest } = usage;
  return rest;
};

const said = (messageId: string | undefined, usage: unknown, role: 'agent' | 'user' = 'agent'): AgentMessage => ({
  role,
  parts: [{ kind: 'text', text: `said ${messageId ?? ''}` }],
  ...(messageId === undefined ? {} : { messageId }),
  metadata: { usage },
});
const status = (message: AgentMessage | undefined, metadata?: Record<string, unknown>): AgentEvent => ({
  kind: 'status',
  taskId: 'T',
  status: message === undefined ? { state: 'working' } : { state: 'working', message },
  ...(metadata === undefined ? {} : { metadata }),
});
const artifact = (artifactId: string, usage: unknown, append = false): AgentEvent => ({
  kind: 'artifact',
  taskId: 'T',
  artifact: { artifactId, parts: [{ kind: 'text', text: 'x' }], metadata: { usage } },
  append,
  lastChunk: false,
});
const snapshot = (extra: Partial<Task> = {}): AgentEvent => ({
  kind: 'task',
  task: { id: 'T', contextId: 'C', status: { state: 'working' }, artifacts: [], ...extra },
});
const done: AgentEvent = { kind: 'status', taskId: 'T', status: { state: 'completed' } };

const m1 = said('m1', { input_tokens: 10, output_tokens: 5, total_tokens: 15 });
const m2 = said('m2', { input_tokens: 20, output_tokens: 7, total_tokens: 27 });

describe('usage in a turn', () => {
  it('per-message reports add up; each report is a usage event with the running total', () => {
    const events = render([status(m1), status(m2), done]);
    expect(usageEvents(events).map((e) => [e.scope, n(e.usage), n(e.total)])).toEqual([
      ['message', { inputTokens: 10, outputTokens: 5, totalTokens: 15 }, { inputTokens: 10, outputTokens: 5, totalTokens: 15 }],
      ['message', { inputTokens: 20, outputTokens: 7, totalTokens: 27 }, { inputTokens: 30, outputTokens: 12, totalTokens: 42 }],
    ]);
    expect(endOf(events).usage).toEqual({ inputTokens: 30, outputTokens: 12, totalTokens: 42 });
  });

  it('a report seen again (a snapshot, its history, a resubscribe, the final status) is not counted twice', () => {
    const history = [said('u', undefined, 'user'), m1, m2];
    const events = render([
      status(m1),
      status(m2),
      snapshot({ history }),
      snapshot({ history, status: { state: 'working', message: m2 } }),
      status(m2),
      { kind: 'status', taskId: 'T', status: { state: 'completed', message: m2 } },
    ]);
    expect(usageEvents(events)).toHaveLength(2);
    expect(n(endOf(events).usage)).toEqual({ inputTokens: 30, outputTokens: 12, totalTokens: 42 });
  });

  it("a task's own total is the turn's total, not added to the per-message reports", () => {
    const total = { input_tokens: 30, output_tokens: 12, total_tokens: 42 };
    const events = render([
      status(m1),
      status(m2),
      { kind: 'status', taskId: 'T', status: { state: 'completed' }, metadata: { usage: total } },
    ]);
    expect(usageEvents(events).map((e) => e.scope)).toEqual(['message', 'message', 'task']);
    expect(endOf(events).usage).toEqual({ inputTokens: 30, outputTokens: 12, totalTokens: 42, reported: total });
    // Later reports do not move a total the agent gave.
    const after = render([snapshot({ metadata: { usage: { prompt_tokens: 100 } } }), status(m1), done]);
    expect(n(endOf(after).usage)).toEqual({ inputTokens: 100 });
  });

  it("an artifact's chunks repeating its report count once; a report that grows counts as it last was", () => {
    const repeated = render([
      artifact('A', { inputTokens: 3 }),
      artifact('A', { inputTokens: 3 }, true),
      artifact('A', { inputTokens: 3 }, true),
      done,
    ]);
    expect(usageEvents(repeated)).toHaveLength(1);
    expect(n(endOf(repeated).usage)).toEqual({ inputTokens: 3 });
    const growing = render([
      artifact('A', { inputTokens: 3 }),
      artifact('A', { inputTokens: 8 }, true),
      artifact('B', { inputTokens: 1 }),
      done,
    ]);
    expect(usageEvents(growing).map((e) => n(e.total))).toEqual([{ inputTokens: 3 }, { inputTokens: 8 }, { inputTokens: 9 }]);
  });

  it("an update event's own `usage` is the task's (the SDKs merge it into the task's metadata); ADK's on it is its artifact's", () => {
    const chunk = (artifactId: string, metadata: Record<string, unknown>): AgentEvent => ({
      kind: 'artifact',
      taskId: 'T',
      artifact: { artifactId, parts: [{ kind: 'text', text: 'x' }] },
      append: false,
      lastChunk: true,
      metadata,
    });
    const merged = render([status(m1), chunk('A', { usage: { input_tokens: 99 } }), done]);
    expect(usageEvents(merged).map((e) => e.scope)).toEqual(['message', 'task']);
    expect(n(endOf(merged).usage)).toEqual({ inputTokens: 99 });
    const adk = render([
      chunk('A', { adk_usage_metadata: { promptTokenCount: 4 } }),
      chunk('A', { adk_usage_metadata: { promptTokenCount: 4 } }),
      done,
    ]);
    expect(usageEvents(adk).map((e) => [e.scope, n(e.total)])).toEqual([['artifact', { inputTokens: 4 }]]);
  });

  it('a message without an id is known by its report: the same report again counts once', () => {
    const events = render([status(said(undefined, { inputTokens: 4 })), status(said(undefined, { inputTokens: 4 })), done]);
    expect(n(endOf(events).usage)).toEqual({ inputTokens: 4 });
  });

  it("ADK: the event's report belongs to its message (once with the message's own); a partial event's is left for the whole", () => {
    const call = { promptTokenCount: 100, candidatesTokenCount: 9, totalTokenCount: 109 };
    const message = { ...said('e1', undefined), metadata: { adk_usage_metadata: call } };
    const events = render([
      status(said('p1', undefined), { adk_partial: true, adk_usage_metadata: { promptTokenCount: 100, candidatesTokenCount: 3 } }),
      status(message, { adk_usage_metadata: call }),
      status(said('e2', undefined), { adk_usage_metadata: { promptTokenCount: 120, candidatesTokenCount: 4, totalTokenCount: 124 } }),
      // The agent's SDK merged the last call's metadata into the task: not a total.
      snapshot({ metadata: { adk_usage_metadata: { promptTokenCount: 120, candidatesTokenCount: 4, totalTokenCount: 124 } } }),
      done,
    ]);
    expect(n(endOf(events).usage)).toEqual({ inputTokens: 220, outputTokens: 13, totalTokens: 233 });
    // With nothing else reported, that report stands for the turn's.
    const alone = render([snapshot({ metadata: { adk_usage_metadata: { promptTokenCount: 120 } } }), done]);
    expect(n(endOf(alone).usage)).toEqual({ inputTokens: 120 });
  });

  it("a message's own report wins over ADK's on its event: seen again, nothing changes", () => {
    const own = said('m', { input_tokens: 10 });
    const events = render([
      status(own, { adk_usage_metadata: { promptTokenCount: 99 } }),
      snapshot({ status: { state: 'working', message: own } }),
      status(own, { adk_usage_metadata: { promptTokenCount: 99 } }),
      done,
    ]);
    expect(usageEvents(events)).toHaveLength(1);
    expect(n(endOf(events).usage)).toEqual({ inputTokens: 10 });
  });

  it("a continued task's earlier exchanges are not this turn's: only the history after the person's last message counts", () => {
    const history = [said('u1', undefined, 'user'), m1, said('u2', undefined, 'user'), m2];
    expect(n(endOf(render([snapshot({ history }), done])).usage)).toEqual({ inputTokens: 20, outputTokens: 7, totalTokens: 27 });
  });

  it("the person's messages report nothing; a message-only answer's report is the turn's", () => {
    expect(endOf(render([status(said('u', { inputTokens: 5 }, 'user')), done]))).not.toHaveProperty('usage');
    const only = render([{ kind: 'message', message: m1 }], { taskId: undefined, contextId: 'C', state: undefined, messageOnly: true });
    expect(n(endOf(only).usage)).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });
  });

  it('costs add up in one currency; in mixed currencies the total has none', () => {
    const same = render([status(said('a', { cost: 0.1, currency: 'USD' })), status(said('b', { cost_usd: 0.2 })), done]);
    expect(endOf(same).usage?.cost).toEqual({ amount: 0.3, currency: 'USD' });
    const mixed = render([status(said('a', { input_tokens: 1, cost: 0.1, currency: 'EUR' })), status(said('b', { cost_usd: 0.2 })), done]);
    expect(n(endOf(mixed).usage)).toEqual({ inputTokens: 1 });
  });

  it('nothing reported: no usage event, no usage at the end or in the view', () => {
    const events = render([status(said('a', undefined)), artifact('A', undefined), snapshot({ metadata: { other: 1 } }), done]);
    expect(usageEvents(events)).toEqual([]);
    expect(endOf(events)).not.toHaveProperty('usage');
    expect(events.reduce(reduceTurn, initialTurnView)).not.toHaveProperty('usage');
  });

  it.each([
    ['negative', { input_tokens: -5 }],
    ['NaN', { input_tokens: Number.NaN }],
    ['strings', { input_tokens: '5', output_tokens: 'many' }],
    ['huge', { input_tokens: 1e300, total_tokens: 2 ** 64 }],
    ['not an object', 'a lot'],
    ['null', null],
  ])('garbage (%s) is ignored, never an error, never a thrown turn', (_name, usage) => {
    const events = render([
      status(said('a', usage)),
      artifact('A', usage),
      snapshot({ metadata: { usage } }),
      { ...done, metadata: { usage } },
    ]);
    expect(usageEvents(events)).toEqual([]);
    expect(endOf(events)).toMatchObject({ type: 'end', outcome: 'completed' });
    expect(endOf(events)).not.toHaveProperty('usage');
  });

  it('chaos: the same reports in any order, repeated any number of times, give the same total', () => {
    const reports: AgentEvent[] = [
      status(m1),
      status(m2),
      artifact('A', { inputTokens: 1, outputTokens: 2 }),
      artifact('B', { output_tokens: 4 }),
      snapshot({ history: [said('u', undefined, 'user'), m1, m2] }),
    ];
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let round = 0; round < 200; round++) {
      const signals = reports.flatMap((r) => Array.from({ length: 1 + Math.floor(random() * 3) }, () => r)).sort(() => random() - 0.5);
      const events = render([...signals, done]);
      expect(n(endOf(events).usage)).toEqual({ inputTokens: 31, outputTokens: 18, totalTokens: 42 });
      expect(usageEvents(events)).toHaveLength(4);
    }
  });

  it('the reports a turn keeps are bounded: past 1,000 carriers a new one is ignored', () => {
    const signals = Array.from({ length: 1_500 }, (_, i) => status(said(`m${i}`, { inputTokens: 1 })));
    expect(n(endOf(render([...signals, done])).usage)).toEqual({ inputTokens: 1_000 });
  });
});

describe('usage kept by the view and the history', () => {
  it("turnState's view keeps the running total and the end's", () => {
    const events = render([{ kind: 'task', task: { id: 'T', status: { state: 'working' }, artifacts: [] } }, status(m1), status(m2), done]);
    const views = events.map((_, i) => events.slice(0, i + 1).reduce(reduceTurn, initialTurnView));
    expect(views.map((v) => v.usage?.inputTokens)).toContain(10);
    expect(n(views.at(-1)!.usage)).toEqual({ inputTokens: 30, outputTokens: 12, totalTokens: 42 });
  });

  it("a history exchange's usage is its whole task's, each report once", () => {
    const history = [said('u1', undefined, 'user'), m1, said('u2', undefined, 'user'), m2];
    const task: Task = { id: 'T', contextId: 'C', status: { state: 'completed', message: m2 }, artifacts: [], history };
    expect(n(exchangeOf(task).usage)).toEqual({ inputTokens: 30, outputTokens: 12, totalTokens: 42 });
    const withTotal: Task = { ...task, metadata: { usage: { prompt_tokens: 31, completion_tokens: 12 } } };
    expect(n(exchangeOf(withTotal).usage)).toEqual({ inputTokens: 31, outputTokens: 12 });
    const quiet: Task = { id: 'T', status: { state: 'completed' }, artifacts: [] as Artifact[] };
    expect(exchangeOf(quiet)).not.toHaveProperty('usage');
  });
});
