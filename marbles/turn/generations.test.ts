import { describe, expect, it } from 'vitest';
import { A2AError } from '../../src/errors.js';
import type { AgentEvent } from '../../src/port/types.js';
import { ev, task } from '../../src/testing/index.js';
import { labels, marbles, turn } from '../helpers.js';

// A2A 1.1 (draft): the task's generation on each event. A gap reads the task again before the end; an
// event seen already is not shown twice; an agent that sends 0, or repeats one, is followed as a 1.0 agent.

/** `event` carrying generation `n`. */
function gen(event: AgentEvent, n: number): AgentEvent {
  if (event.kind === 'task') return { ...event, task: { ...event.task, generation: n } };
  return { ...event, generation: n } as AgentEvent;
}

const drop = new A2AError({ kind: 'network', message: 'terminated' });
const chunk = (text: string, n: number, append = true) => gen(ev.artifact('T', 'A', text, { append }), n);
const letters = {
  ...labels,
  a: 'text "a"',
  b: 'text "b"',
  B: 'text "ab"',
  x: 'reconcile T',
  F: 'end completed "abc"',
  G: 'end completed "ab"',
  H: 'end completed "aab"',
  d: 'text "c"',
};

describe('generations (A2A 1.1)', () => {
  it('an update that skips a generation: the turn reads the task once more before its end, and its artifacts are the reply', () => {
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('-t----w-a-b-(c|)', {
        t: gen(ev.task('T', 'submitted'), 1),
        w: gen(ev.status('T', 'working'), 2),
        a: chunk('a', 3, false),
        b: chunk('c', 5), // 4 ("b") never came
        c: gen(ev.status('T', 'completed'), 6),
      });
      const getTask = cold('-----(s|)', { s: { ...task('T', 'completed', { artifacts: [{ artifactId: 'A', parts: [{ kind: 'text', text: 'abc' }] }] }), generation: 6 } });
      expectTurn(turn(agent({ stream, getTask })), 's(tu)-w-a-d-(cx)-(rF|)', [[stream, '^ 11ms !'], [getTask, '12ms ^----!']], {
        values: { ...letters, r: 'replace "abc"' },
      });
    });
  });

  it('after a reconnect, an event the turn saw already is not shown again; the next one is', () => {
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('-t----a-#', { t: gen(ev.task('T', 'working'), 2), a: chunk('a', 3, false) }, drop);
      const resubscribe = cold('                 -(sabc|)', {
        s: gen(ev.task('T', 'working', { artifacts: [{ artifactId: 'A', parts: [{ kind: 'text', text: 'a' }] }] }), 3),
        a: chunk('a', 3), // seen already: dropped
        b: chunk('b', 4),
        c: gen(ev.status('T', 'completed'), 5),
      });
      expectTurn(turn(agent({ stream, resubscribe })), 's(tw)-a-r 10ms (bcG|)', [[stream, '^-------!'], [resubscribe, '18ms ^!']], {
        values: letters,
      });
    });
  });

  it('an agent that sends generation 0 is followed as today: the same chunk twice shows twice', () => {
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('-t----a-a-b-(c|)', {
        t: gen(ev.task('T', 'working'), 0),
        a: chunk('a', 0),
        b: chunk('b', 0),
        c: gen(ev.status('T', 'completed'), 0),
      });
      expectTurn(turn(agent({ stream })), 's(tw)-a-a-b-(cH|)', [[stream, '^ 11ms !']], { values: letters });
    });
  });

  it('two updates of one stream with the same generation: the agent keeps none, and nothing is dropped after', () => {
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('-t----a-a-b-(c|)', {
        t: gen(ev.task('T', 'working'), 1),
        a: chunk('a', 2),
        b: chunk('b', 2),
        c: gen(ev.status('T', 'completed'), 1),
      });
      expectTurn(turn(agent({ stream })), 's(tw)-a-a-b-(cH|)', [[stream, '^ 11ms !']], { values: letters });
    });
  });
});
