import { map } from 'rxjs';
import { describe, it } from 'vitest';
import { A2AError } from '../../src/errors.js';
import type { TurnEvent } from '../../src/port/events.js';
import type { AgentEvent, AgentMessage, Task } from '../../src/port/types.js';
import { ev } from '../../src/testing/index.js';
import { runTurn } from '../../src/turn/turn.js';
import { label, labels, marbles, options } from '../helpers.js';

// Usage through the ladder on virtual time: a report repeated by a resubscribe's snapshot, by the history a
// blocking send answers with, or by polls counts once; the task's own total ends the turn.

const drop = new A2AError({ kind: 'network', message: 'terminated' });

const said = (messageId: string, text: string, usage?: Record<string, unknown>): AgentMessage => ({
  role: 'agent',
  messageId,
  parts: [{ kind: 'text', text }],
  ...(usage === undefined ? {} : { metadata: { usage } }),
});
const user: AgentMessage = { role: 'user', messageId: 'u', parts: [{ kind: 'text', text: 'hi' }] };
const m1 = said('m1', 'one', { inputTokens: 10, outputTokens: 5 });
const m2 = said('m2', 'ok', { inputTokens: 20, outputTokens: 7 });
const status = (message: AgentMessage, state: Task['status']['state'] = 'working'): AgentEvent => ({
  kind: 'status',
  taskId: 'T',
  status: { state, message },
});
const snapshot = (state: Task['status']['state'], extra: Partial<Task> = {}): Task => ({
  id: 'T',
  status: { state, message: m2 },
  artifacts: [],
  history: [user, m1, m2],
  ...extra,
});

/** The turn's events as labels, a usage event and the end with their totals. */
const usageLabel = (event: TurnEvent): string => {
  if (event.type === 'usage') return `usage ${event.scope} ${event.total.inputTokens}/${event.total.outputTokens}`;
  if (event.type === 'end') return `end ${event.outcome} ${event.usage ? `${event.usage.inputTokens}/${event.usage.outputTokens}` : 'none'}`;
  return label(event);
};
const values = {
  ...labels,
  a: 'usage message 10/5',
  b: 'usage message 30/12',
  T: 'usage task 31/13',
  o: 'status working "one"',
  k: 'status working "ok"',
  K: 'status completed "ok"',
  h: 'text "ok"',
  X: 'end completed 30/12',
  Y: 'end completed 31/13',
  N: 'end completed none',
  r: 'reconnecting #1 in 10',
};

describe('usage through the ladder', () => {
  for (const gap of ['', '-', '---']) {
    it(`a resubscribe's snapshot repeats the reports: counted once (gap "${gap}")`, () => {
      marbles(({ cold, agent, expectTurn }) => {
        const stream = cold<AgentEvent>(`-a---${gap}b---#`, { a: ev.task('T', 'working'), b: status(m1) }, drop);
        const resubscribe = cold<AgentEvent>('-s---d|', { s: { kind: 'task', task: snapshot('working') }, d: status(m2, 'completed') });
        const turn$ = runTurn(agent({ stream, resubscribe }), { text: 'hi' }, options).pipe(map(usageLabel));
        const streamSubs = `^${'-'.repeat(8 + gap.length)}!`;
        const resubscribeSubs = `${'-'.repeat(19 + gap.length)}^----!`;
        expectTurn(turn$, `s(tw)${gap}(oa)r${'-'.repeat(10)}(kb)(KhX|)`, [
          [stream, streamSubs],
          [resubscribe, resubscribeSubs],
        ], { values });
      });
    });
  }

  it("a blocking send's task, its history repeating the status message's report, and a task total: the total ends it", () => {
    marbles(({ cold, blockingCard, agent, expectTurn }) => {
      const total = { prompt_tokens: 31, completion_tokens: 13 };
      const send = cold('--(t|)', { t: { kind: 'task', task: snapshot('completed', { metadata: { usage: total } }) } as const });
      const turn$ = runTurn(agent({ card: blockingCard, send }), { text: 'hi' }, options).pipe(map(usageLabel));
      expectTurn(turn$, 's-(tKabThY|)', [[send, '^-!']], { card: blockingCard, values });
    });
  });

  it('nothing reported: no usage event, an end without usage', () => {
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('-a---b|', { a: ev.task('T', 'working'), b: status(said('m', 'ok'), 'completed') });
      const turn$ = runTurn(agent({ stream }), { text: 'hi' }, options).pipe(map(usageLabel));
      expectTurn(turn$, 's(tw)(KhN|)', [[stream, '^----!']], { values });
    });
  });
});
