import fc from 'fast-check';
import { lastValueFrom, of, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { MAX_ID_CHARS } from '../../src/render/ids.js';
import { ARTIFACT_SEPARATOR, TurnRenderer } from '../../src/render/renderer.js';
import { reduceTurn, initialTurnView, type TurnView } from '../../src/render/view.js';
import { createFakePort, ev, testCard } from '../../src/testing/index.js';
import type { TurnEvent } from '../../src/port/events.js';
import { TurnTask } from '../../src/turn/task.js';
import { runTurn } from '../../src/turn/turn.js';
import type { AgentEvent, Task } from '../../src/port/types.js';
import { fromWire } from '../shapes/from-wire.js';
import { SHAPES } from '../shapes/recorded.js';

/** A renderer over a turn's task facts, fed as the ladder feeds them: the task observes each event first. */
function renderer() {
  const task = new TurnTask();
  const turnRenderer = new TurnRenderer(task);
  return {
    push: (event: AgentEvent): TurnEvent[] => (task.belongs(event) ? (task.observe(event), turnRenderer.push(event)) : []),
    finish: (): TurnEvent[] => turnRenderer.finish(),
  };
}

function render(events: AgentEvent[]): TurnEvent[] {
  const rendering = renderer();
  return [...events.flatMap((e) => rendering.push(e)), ...rendering.finish()];
}

const fold = (events: TurnEvent[]): string =>
  events.reduce((reply, e) => (e.type === 'text' ? (e.replace ? e.text : reply + e.text) : reply), '');
const end = (events: TurnEvent[]) => events.at(-1) as Extract<TurnEvent, { type: 'end' }>;
/** The preview texts as a UI shows them: each change once. */
const previews = (events: TurnEvent[]) =>
  events
    .flatMap((e) => (e.type === 'status' && e.text !== undefined ? [e.text] : []))
    .filter((text, i, all) => i === 0 || all[i - 1] !== text);
const view = (events: TurnEvent[]): TurnView => events.reduce(reduceTurn, initialTurnView);

describe('the recorded shapes of real agents (F1–F7) render the reply once', () => {
  const cases: [string, string, string[]][] = [
    ['F1', 'It is 21°C in Paris.', ['It is 21°C in Paris.']],
    ['F2', 'Hello!', ['Hel', 'Hello!']],
    ['F3', 'Hello!', []],
    ['F4', 'Hello!', ['Hel', 'Hello!']],
    ['F5', '10 USD = 9.2 EUR', ['Looking up the exchange rates...', 'Processing the exchange rates..']],
    ['F6a', 'Hello, World! I have received your request (hi)', ['Processing request...', 'Request is completed!']],
    ['F6b', 'Hello World', []],
    ['F7', 'Step 0I will callTask completed', []],
  ];
  for (const [name, reply, shownPreviews] of cases) {
    it(`${name}: "${reply}"`, () => {
      const events = render(fromWire(SHAPES[name]!));
      expect(end(events)).toMatchObject({ type: 'end', outcome: 'completed', text: reply });
      expect(fold(events)).toBe(reply);
      expect(previews(events)).toEqual(shownPreviews);
      const final = view(events);
      expect(final.reply).toBe(reply);
      expect(final.preview).toBeUndefined();
    });
  }

  it('F1 with a long-running tool ends input-required without the tool call as text', () => {
    const lines = SHAPES.F1!.split('\n').slice(0, 5);
    lines.push(
      '{"kind":"status-update","taskId":"T","contextId":"C","final":true,"status":{"state":"input-required","message":{"kind":"message","role":"agent","messageId":"m4","parts":[{"kind":"data","data":{"id":"fc2","name":"ask_user"},"metadata":{"adk_type":"function_call","adk_is_long_running":true}}]}}}',
    );
    const events = render(fromWire(lines.join('\n')));
    expect(end(events)).toMatchObject({ outcome: 'input-required', text: 'It is 21°C in Paris.', taskId: 'T', contextId: 'C' });
  });

  it('F3 streams the deltas and emits nothing for the closing replace that repeats them', () => {
    const texts = render(fromWire(SHAPES.F3!)).filter((e) => e.type === 'text');
    expect(texts).toEqual([
      { type: 'text', text: 'Hel', replace: false },
      { type: 'text', text: 'lo!', replace: false },
    ]);
  });

  it('the same reply comes out through the whole ladder', async () => {
    const port = createFakePort({ card: () => of(testCard()), stream: () => of(...fromWire(SHAPES.F2!)) });
    const events = await lastValueFrom(runTurn(port, { text: 'hi' }).pipe(toArray()));
    expect(events[0]).toEqual({ type: 'start', messageId: expect.any(String) });
    expect(end(events)).toMatchObject({ outcome: 'completed', text: 'Hello!', taskId: 'T', contextId: 'C' });
    expect(events.filter((e) => e.type === 'end')).toHaveLength(1);
  });
});

describe('renderer rules', () => {
  it('a replace of an earlier artifact replaces the reply', () => {
    const events = render([
      ev.artifact('T', 'A', 'one'),
      ev.artifact('T', 'B', 'two'),
      ev.artifact('T', 'A', 'uno'),
      ev.status('T', 'completed'),
    ]);
    expect(events.filter((e) => e.type === 'text')).toEqual([
      { type: 'text', text: 'one', replace: false },
      { type: 'text', text: `${ARTIFACT_SEPARATOR}two`, replace: false },
      { type: 'text', text: `uno${ARTIFACT_SEPARATOR}two`, replace: true },
    ]);
    expect(end(events).text).toBe(`uno${ARTIFACT_SEPARATOR}two`);
  });

  it('a partial artifact that becomes whole keeps the reply in arrival order (folded text equals the end text)', () => {
    const partial = { adk_partial: true };
    const events = render([
      ev.task('T', 'working'),
      { kind: 'artifact', taskId: 'T', artifact: { artifactId: 'B', parts: [] }, append: false, lastChunk: false },
      ev.artifact('T', 'P', 'hel', { metadata: partial }),
      ev.artifact('T', 'P', 'hello'),
      ev.artifact('T', 'B', 'world', { append: true }),
      ev.artifact('T', 'B', '!', { append: true }),
      ev.status('T', 'completed'),
    ]);
    expect(end(events).text).toBe(`world!${ARTIFACT_SEPARATOR}hello`);
    expect(fold(events)).toBe(end(events).text);
  });

  it('skips user echoes and data parts', () => {
    const events = render([
      ev.status('T', 'submitted'),
      {
        kind: 'status',
        taskId: 'T',
        status: { state: 'working', message: { role: 'user', parts: [{ kind: 'text', text: 'my question' }] } },
      },
      {
        kind: 'artifact',
        taskId: 'T',
        artifact: { artifactId: 'tool', parts: [{ kind: 'data', data: { name: 'search' } }] },
        append: false,
        lastChunk: true,
      },
      ev.status('T', 'completed', 'The answer.'),
    ]);
    expect(end(events).text).toBe('The answer.');
    expect(previews(events)).toEqual(['The answer.']);
  });

  it('a failed task ends with the agent message as outcome failed', () => {
    const events = render([ev.task('T', 'working'), ev.status('T', 'failed', 'Something broke.')]);
    expect(end(events)).toMatchObject({ outcome: 'failed', text: 'Something broke.' });
  });

  it('refuses to finish a task that never settled', () => {
    const rendering = renderer();
    rendering.push(ev.task('T', 'working'));
    expect(() => rendering.finish()).toThrow(/not settled/);
  });

  it('takes the answer from a snapshot history when nothing else carries it', () => {
    const snapshot: Task = {
      id: 'T',
      status: { state: 'completed' },
      artifacts: [],
      history: [
        { role: 'user', parts: [{ kind: 'text', text: 'q' }] },
        { role: 'agent', parts: [{ kind: 'text', text: 'From history.' }] },
      ],
    };
    expect(end(render([{ kind: 'task', task: snapshot }])).text).toBe('From history.');
  });

  it('clears the sign-in preview once the task moves on', () => {
    const events = [
      { type: 'start' } as TurnEvent,
      ...render([
        ev.task('T', 'working'),
        ev.status('T', 'auth-required', 'Sign in'),
        ev.status('T', 'working'),
        ev.artifact('T', 'A', 'ok'),
        ev.status('T', 'completed'),
      ]),
    ];
    expect(events.filter((e) => e.type === 'status')).toEqual([
      { type: 'status', state: 'working' },
      { type: 'status', state: 'auth-required', text: 'Sign in' },
      { type: 'status', state: 'working' },
      { type: 'status', state: 'completed' },
    ]);
    expect(view(events).authRequired).toBeUndefined();
  });
});

/** The reference model: artifacts by id in arrival order, append or replace, joined. */
function modelReply(events: AgentEvent[]): string {
  const artifacts = new Map<string, string>();
  for (const e of events) {
    if (e.kind === 'task') {
      artifacts.clear();
      for (const a of e.task.artifacts) artifacts.set(a.artifactId, a.parts.map((p) => (p.kind === 'text' ? p.text : '')).join(''));
    }
    if (e.kind !== 'artifact') continue;
    const chunk = e.artifact.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');
    const known = artifacts.get(e.artifact.artifactId);
    artifacts.set(e.artifact.artifactId, e.append && known !== undefined ? known + chunk : chunk);
  }
  return [...artifacts.values()].filter((t) => t !== '').join(ARTIFACT_SEPARATOR);
}

function snapshotOf(events: AgentEvent[]): AgentEvent {
  const artifacts = new Map<string, string>();
  for (const e of events) {
    if (e.kind !== 'artifact') continue;
    const chunk = e.artifact.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');
    const known = artifacts.get(e.artifact.artifactId);
    artifacts.set(e.artifact.artifactId, e.append && known !== undefined ? known + chunk : chunk);
  }
  return ev.task('T', 'working', {
    artifacts: [...artifacts].map(([artifactId, text]) => ({ artifactId, parts: [{ kind: 'text', text }] })),
  });
}

const chunkArb = fc.record({
  id: fc.constantFrom('A', 'B', 'C'),
  text: fc.string({ maxLength: 6 }),
  append: fc.boolean(),
});

describe('renderer properties', () => {
  it('the text events fold to the end text, which is the model reply', () => {
    fc.assert(
      fc.property(fc.array(chunkArb, { maxLength: 30 }), (chunks) => {
        const events = chunks.map((c) => ev.artifact('T', c.id, c.text, { append: c.append }));
        const out = render([ev.task('T', 'working'), ...events, ev.status('T', 'completed')]);
        const expected = modelReply(events);
        expect(end(out).text).toBe(expected);
        expect(fold(out)).toBe(expected);
        expect(view([{ type: 'start' }, ...out]).reply).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('a replayed snapshot of the current state changes nothing', () => {
    fc.assert(
      fc.property(fc.array(chunkArb, { minLength: 1, maxLength: 20 }), fc.nat(), (chunks, cut) => {
        const events = chunks.map((c) => ev.artifact('T', c.id, c.text, { append: c.append }));
        const at = cut % (events.length + 1);
        const prefix = events.slice(0, at);
        const out: TurnEvent[] = [];
        const rendering = renderer();
        const push = (e: AgentEvent) => out.push(...rendering.push(e));
        push(ev.task('T', 'working'));
        for (const e of prefix) push(e);
        const before = out.length;
        push(snapshotOf(prefix));
        push(snapshotOf(prefix));
        expect(out.slice(before).filter((e) => e.type === 'text')).toEqual([]);
        for (const e of events.slice(at)) push(e);
        push(ev.status('T', 'completed'));
        out.push(...rendering.finish());
        expect(end(out).text).toBe(modelReply(events));
        expect(fold(out)).toBe(modelReply(events));
      }),
      { numRuns: 300 },
    );
  });
});

describe('status messages: reply or preview (the four conventions)', () => {
  const say = (text: string, messageId?: string, state: 'working' | 'completed' = 'working'): AgentEvent => ({
    kind: 'status',
    taskId: 'T',
    status: { state, message: { role: 'agent', parts: [{ kind: 'text', text }], ...(messageId ? { messageId } : {}) } },
  });
  const none = (state: 'completed' | 'input-required'): AgentEvent => ({ kind: 'status', taskId: 'T', status: { state } });

  it('chunks of one message (one messageId) are joined: the reply is their sum', () => {
    const events = render([ev.task('T', 'working'), say('The rate ', 'm'), say('is 0.92.', 'm'), none('input-required')]);
    expect(end(events)).toMatchObject({ outcome: 'input-required', text: 'The rate is 0.92.' });
    expect(previews(events)).toEqual(['The rate ', 'The rate is 0.92.']);
  });

  it('a message whose last chunk rides on the settling status: the reply is the whole message', () => {
    const events = render([ev.task('T', 'working'), say('The rate ', 'm'), say('is 0.92.', 'm', 'completed')]);
    expect(end(events).text).toBe('The rate is 0.92.');
    expect(fold(events)).toBe('The rate is 0.92.');
  });

  it('cumulative snapshots of one message: the reply is the last one, never the sum', () => {
    const events = render([ev.task('T', 'working'), say('The rate ', 'm'), say('The rate is 0.92.', 'm'), none('completed')]);
    expect(end(events).text).toBe('The rate is 0.92.');
    expect(fold(events)).toBe('The rate is 0.92.');
  });

  it("gemini-cli's asides (a citation under the reply's messageId) are neither preview nor reply", () => {
    const citation: AgentEvent = { ...say('[1] https://example.org', 'm'), metadata: { coderAgent: { kind: 'citation' } } } as AgentEvent;
    const events = render([ev.task('T', 'working'), say('The rate ', 'm'), say('is 0.92.', 'm'), citation, none('input-required')]);
    expect(end(events).text).toBe('The rate is 0.92.');
  });

  it('separate messages replace one another: progress strings are previews', () => {
    const events = render([
      ev.task('T', 'working'),
      say('Looking up…', 'a'),
      say('Processing…', 'b'),
      say('Done.', 'c'),
      none('completed'),
    ]);
    expect(end(events).text).toBe('Done.');
    expect(previews(events)).toEqual(['Looking up…', 'Processing…', 'Done.']);
  });
});

describe('a long streamed reply', () => {
  it('is every chunk in order, across the points where the kept text is flattened', () => {
    const chunks = Array.from({ length: 5_000 }, (_, i) => `<${i}>`);
    const events: AgentEvent[] = [
      { kind: 'task', task: { id: 'T', contextId: 'C', status: { state: 'working' }, artifacts: [] } },
      ...chunks.map((text, i): AgentEvent => ({
        kind: 'artifact',
        taskId: 'T',
        contextId: 'C',
        artifact: { artifactId: 'A', parts: [{ kind: 'text', text }] },
        append: i > 0,
        lastChunk: i === chunks.length - 1,
      })),
      { kind: 'status', taskId: 'T', contextId: 'C', status: { state: 'completed' } },
    ];
    const out = render(events);
    expect(end(out).text).toBe(chunks.join(''));
    expect(fold(out)).toBe(chunks.join(''));
  });
});

describe('ids the client keeps are bounded', () => {
  const long = 'i'.repeat(MAX_ID_CHARS + 1);
  const atBound = 'i'.repeat(MAX_ID_CHARS);
  const message = (messageId: string) => ({ role: 'agent' as const, messageId, parts: [{ kind: 'text' as const, text: 'hi' }] });
  const cases: [string, (id: string) => AgentEvent][] = [
    ['task', (id) => ev.task(id, 'working')],
    ['context', (id) => ({ kind: 'status', taskId: 'T', contextId: id, status: { state: 'working' } })],
    ['artifact', (id) => ev.artifact('T', id, 'chunk')],
    ['message', (id) => ({ kind: 'status', taskId: 'T', status: { state: 'working', message: message(id) } })],
    ['artifact', (id) => ({ kind: 'task', task: { id: 'T', status: { state: 'working' }, artifacts: [{ artifactId: id, parts: [] }] } })],
  ];
  it.each(cases)('a %s id one past the bound is a protocol error naming the bound; at the bound it is taken', (what, event) => {
    expect(() => renderer().push(event(atBound))).not.toThrow();
    expect(() => renderer().push(event(long))).toThrow(
      expect.objectContaining({ kind: 'protocol', message: expect.stringContaining(`${what} id of ${MAX_ID_CHARS + 1} characters`) }),
    );
  });

  it.each(cases.flatMap(([what, event]) => ['\r\n', '\u0000', '\t', '\u007f', '\u0085'].map((c) => [what, event, c] as const)))(
    'a %s id holding a control character (%j) is a protocol error naming the field and the code point, never the id',
    (what, event, control) => {
      const id = `x${control}event: end`;
      const code = `U+${control.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
      let thrown: unknown;
      try {
        renderer().push(event(id));
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({
        kind: 'protocol',
        retryable: false,
        message: expect.stringContaining(`${what} id holding a control character (${code} at character 2)`),
      });
      expect((thrown as Error).message).not.toContain('event: end');
    },
  );

  it('an id of printable characters (beyond ASCII too) is taken', () => {
    for (const [, event] of cases) expect(() => renderer().push(event('tâche-\u00a0-\u2028-😀'))).not.toThrow();
  });
});
