import { map, Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import { ForwardingPort } from '../../../src/port/forwarding.js';
import type { A2APort } from '../../../src/port/port.js';
import type { PushDelivery, PushWhen } from '../../../src/port/push.js';
import type { NewPushConfig, PushConfig } from '../../../src/port/push-configs.js';
import type { AgentEvent } from '../../../src/port/types.js';
import { ev, task, testCard } from '../../../src/testing/index.js';
import { runResume, runTurn } from '../../../src/turn/turn.js';
import { label, labels, marbles, options } from '../../helpers.js';

// A turn followed by the agent's pushes: the message asks for them, or a running task is handed over to them.

/** The port with the push-config call scripted, and what it was asked. */
class PushConfigPort extends ForwardingPort {
  readonly configs: NewPushConfig[] = [];
  constructor(
    inner: A2APort,
    private readonly answer: Observable<PushConfig>,
  ) {
    super(inner);
  }
  override createPushConfig(config: NewPushConfig): Observable<PushConfig> {
    this.configs.push(config);
    return this.answer;
  }
}

const target = { url: 'http://127.0.0.1/push', token: 'tok', id: 'a4h-push' };
const CONTEXT = 'ctx-1';
const pushCard = testCard({ pushNotifications: true });
const config: PushConfig = { ...target, taskId: 'T' };

const letters = {
  ...labels,
  k: 'push asked',
  o: 'push handed-off',
  x: 'push refused (protocol)',
  m: 'push missed',
  z: 'reconcile T',
  W: 'task T',
};

const answered = { r: ev.task('T', 'working') };

const agentEvents = {
  r: ev.task('T', 'working'),
  w: ev.status('T', 'working'),
  h: ev.artifact('T', 'a', 'ok', { lastChunk: true }),
  c: ev.status('T', 'completed'),
  o: ev.status('OTHER', 'completed'),
};

const snapshots = {
  t: task('T', 'working'),
  d: task('T', 'completed', { artifacts: [{ artifactId: 'a', parts: [{ kind: 'text', text: 'ok' }] }] }),
};

/** A receiver whose pushes are `pushes` (set later when made in the run), and the contextIds it was asked targets for. */
function delivery(
  pushes: Observable<AgentEvent> | undefined,
  when: PushWhen = 'offered',
  checkEveryMs = 1_000,
): PushDelivery & { asked: string[]; pushes: Observable<AgentEvent> | undefined } {
  const made = {
    asked: [] as string[],
    pushes,
    when,
    checkEveryMs,
    source: {
      target: (contextId: string) => {
        made.asked.push(contextId);
        return new Observable<typeof target>((s) => (s.next(target), s.complete()));
      },
      events: () => made.pushes!,
    },
  };
  return made;
}

const turnOf = (port: A2APort, push: PushDelivery, contextId = CONTEXT) =>
  runTurn(port, { text: 'hi', contextId }, { ...options, push }).pipe(map(label));

describe('the push rung', () => {
  it('asks for pushes with the message, returns at once, and shows the pushes as the turn; the reply read once more at the end', () => {
    marbles(({ cold, hot, agent, expectObservable, expectSubscriptions }) => {
      const send = cold('      -----(r|)', answered);
      const pushes = hot('     ---------w--h--c', agentEvents);
      const getTask = cold('   -----(d|)', snapshots);
      const port = agent({ card: cold('(c|)', { c: pushCard }), send, getTask });
      expectObservable(turnOf(port, delivery(pushes))).toBe('(sk)-(tw)---h--(cz)-(E|)', letters);
      expectSubscriptions(pushes.subscriptions).toBe('^ 19ms !');
      expectSubscriptions(send.subscriptions).toBe('^----!');
      expectSubscriptions(getTask.subscriptions).toBe('15ms ^----!');
    });
  });

  it('sends the receiver target and returnImmediately on the message, with the thread named to the receiver', () => {
    const push = delivery(undefined);
    const port = marbles(({ cold, hot, agent, expectObservable }) => {
      push.pushes = hot('--------c', agentEvents);
      const port = agent({ card: cold('(c|)', { c: pushCard }), send: cold('----(r|)', answered), getTask: cold('(d|)', snapshots) });
      expectObservable(turnOf(port, push)).toBe('(sk)(tw)(czhE|)', letters);
      return port;
    });
    expect(push.asked).toEqual([CONTEXT]);
    const sent = port.calls.find((call) => call.method === 'send');
    expect(sent).toMatchObject({ message: { push: target, returnImmediately: true, contextId: CONTEXT } });
    expect(port.calls.map((call) => call.method)).not.toContain('stream');
  });

  it('shows the pushes that came before the send answered, after its answer, and drops those of another task', () => {
    marbles(({ cold, hot, agent, expectObservable }) => {
      const pushes = hot('       -wo-h--------c', agentEvents);
      const send = cold('        -----(r|)', answered);
      const port = agent({ card: cold('(c|)', { c: pushCard }), send, getTask: cold('(d|)', snapshots) });
      expectObservable(turnOf(port, delivery(pushes))).toBe('(sk)-(twh)---(czE|)', letters);
    });
  });

  it('heals a lost push with its check: the task found completed ends the turn', () => {
    marbles(({ cold, hot, agent, expectObservable, expectSubscriptions }) => {
      const getTask = cold('-----(d|)', snapshots);
      const port = agent({ card: cold('(c|)', { c: pushCard }), send: cold('-----(r|)', answered), getTask });
      expectObservable(turnOf(port, delivery(hot('-'), 'offered', 50))).toBe('(sk)-(tw) 41ms (cz) 1ms (hE|)', letters);
      // The check 80% of its period after the answer (the kit's random is 0): at 45.
      expectSubscriptions(getTask.subscriptions).toBe(['45ms ^----!', '50ms ^----!']);
    });
  });

  it('goes back to the ladder when the task moved at two checks running with no push between', () => {
    marbles(({ cold, hot, agent, expectObservable }) => {
      const getTask = [task('T', 'working', { message: 'a' }), task('T', 'submitted'), task('T', 'working')].map((t) => cold('(t|)', { t }));
      const resubscribe = cold('(rc|)', agentEvents);
      const port = agent({ card: cold('(c|)', { c: pushCard }), send: cold('-----(r|)', answered), getTask, resubscribe });
      // The first check finds "a" (no change of state: no miss), the second "submitted" (a miss), the third "working" (two): resubscribe.
      expectObservable(turnOf(port, delivery(hot('-'), 'offered', 10))).toBe('(sk)-(tw) 4ms a 7ms u 7ms (WmvqE|)', {
        ...letters,
        a: 'status working "a"',
        u: 'status submitted "a"',
        W: 'status working "a"',
        v: 'status completed "a"',
        E: 'end completed "a"',
        q: 'text "a"',
      });
    });
  });

  it('hands a stream that runs past afterMs over to pushes: the config created, the stream let go, a snapshot, then the pushes', () => {
    const port = marbles(({ cold, hot, agent, expectObservable, expectSubscriptions }) => {
      const stream = cold('  -----r-----w-------------w', agentEvents);
      const pushes = hot('   ------------------------------h---c', agentEvents);
      const getTask = [cold('-(t|)', snapshots), cold('-----(d|)', snapshots)];
      const wrapped = new PushConfigPort(agent({ card: cold('(c|)', { c: pushCard }), stream, getTask }), cold('-----(p|)', { p: config }));
      const push = delivery(pushes, { afterMs: 20 });
      expectObservable(runTurn(wrapped, { text: 'hi', contextId: CONTEXT }, { ...options, push }).pipe(map(label))).toBe(
        's----(tw) 16ms o 4ms h---(cz)-(E|)',
        letters,
      );
      expectSubscriptions(stream.subscriptions).toBe('^ 24ms !');
      expectSubscriptions(pushes.subscriptions).toBe('20ms ^ 18ms !');
      return wrapped;
    });
    expect(port.configs).toEqual([{ id: 'a4h-push', taskId: 'T', url: target.url, token: 'tok', authentication: { scheme: 'Bearer', credentials: 'tok' } }]);
  });

  it('keeps the stream when the agent refuses the config, and says so', () => {
    marbles(({ cold, hot, agent, expectObservable, expectSubscriptions }) => {
      const stream = cold('  -----r-----w------------------(c|)', agentEvents);
      const pushes = hot<AgentEvent>('   -');
      const refusal = cold('-----#', {}, new A2AError({ kind: 'protocol', code: -32003, message: 'push not supported' }));
      const wrapped = new PushConfigPort(agent({ card: cold('(c|)', { c: pushCard }), stream, getTask: cold('(d|)', snapshots) }), refusal as unknown as Observable<PushConfig>);
      expectObservable(runTurn(wrapped, { text: 'hi', contextId: CONTEXT }, { ...options, push: delivery(pushes, { afterMs: 20 }) }).pipe(map(label))).toBe(
        's----(tw) 16ms x----(chE|)',
        letters,
      );
      expectSubscriptions(pushes.subscriptions).toBe('20ms ^----!');
    });
  });

  it('does not ask an agent whose card does not offer push, with `offered`; nor without a contextId, with `always`', () => {
    marbles(({ cold, hot, agent, expectObservable }) => {
      const stream = cold('-----r---(c|)', agentEvents);
      const getTask = cold('(d|)', snapshots);
      expectObservable(turnOf(agent({ stream, getTask }), delivery(hot('-')))).toBe('s----(tw)(chE|)', letters);
      expectObservable(runTurn(agent({ stream, getTask }), { text: 'hi' }, { ...options, push: delivery(hot('-'), 'always') }).pipe(map(label))).toBe(
        's----(tw)(chE|)',
        letters,
      );
    });
  });

  it('stops listening when the turn is left, and cancels the task as any turn does', () => {
    marbles(({ cold, hot, agent, expectObservable, expectSubscriptions }) => {
      const pushes = hot('   -------------h-----', agentEvents);
      const cancel = cold('  (x|)', { x: task('T', 'canceled') });
      const port = agent({ card: cold('(c|)', { c: pushCard }), send: cold('-----(r|)', answered), cancel });
      expectObservable(turnOf(port, delivery(pushes)), '^ 19ms !').toBe('(sk)-(tw)----h', letters);
      expectSubscriptions(pushes.subscriptions).toBe('^ 19ms !');
      expectSubscriptions(cancel.subscriptions).toBe('20ms (^!)');
    });
  });

  it('follows a resumed task by push: config, snapshot, pushes', () => {
    const port = marbles(({ cold, hot, agent, expectObservable }) => {
      const pushes = hot('   --------------h---c', agentEvents);
      const ours = { t: task('T', 'working', { contextId: CONTEXT }), d: { ...snapshots.d, contextId: CONTEXT } };
      const wrapped = new PushConfigPort(
        agent({ card: cold('(c|)', { c: pushCard }), getTask: [cold('-----(t|)', ours), cold('(d|)', ours)] }),
        cold('-----(p|)', { p: config }),
      );
      const resumed = runResume(wrapped, { taskId: 'T', contextId: CONTEXT }, { ...options, push: delivery(pushes) }).pipe(map(label));
      expectObservable(resumed).toBe('s----o----(Ww)h---(czE|)', letters);
      return wrapped;
    });
    expect(port.configs).toHaveLength(1);
  });
});
