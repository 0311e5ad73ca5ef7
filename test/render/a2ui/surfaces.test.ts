import { describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../../src/port/events.js';
import type { AgentEvent, DataPart } from '../../../src/port/types.js';
import { MAX_COMPONENTS_PER_SURFACE, MAX_SURFACES_PER_TURN } from '../../../src/render/a2ui/surfaces.js';
import { TurnRenderer } from '../../../src/render/renderer.js';
import { initialTurnView, reduceTurn } from '../../../src/render/view.js';
import { TurnTask } from '../../../src/turn/task.js';

// A2UI surfaces read from an agent's answer, in every shape the wild sends, checked before any renderer.

function render(events: AgentEvent[]): TurnEvent[] {
  const task = new TurnTask();
  const renderer = new TurnRenderer(task);
  const out = events.flatMap((event) => (task.belongs(event) ? (task.observe(event), renderer.push(event)) : []));
  return [...out, ...renderer.finish()];
}

const create = (surfaceId: string, version = 'v1.0') => ({
  version,
  createSurface: { surfaceId, catalogId: 'https://a2ui.org/basic', sendDataModel: true },
});
const components = (surfaceId: string, list: unknown[], version = 'v1.0') => ({
  version,
  updateComponents: { surfaceId, components: list },
});
const data = (surfaceId: string, value: unknown) => ({ version: 'v1.0', updateDataModel: { surfaceId, path: '/', value } });
const FORM = [create('form'), components('form', [{ id: 'root', component: 'Text', text: 'Pick one' }]), data('form', { choice: 'a' })];

const part = (value: unknown, how: Partial<DataPart> = { metadata: { mimeType: 'application/a2ui+json' } }): DataPart => ({
  kind: 'data',
  data: value,
  ...how,
});
/** A task completed with these parts in one artifact. */
const answer = (...parts: DataPart[]): AgentEvent[] => [
  { kind: 'task', task: { id: 'T', contextId: 'C', status: { state: 'working' }, artifacts: [] } },
  { kind: 'artifact', taskId: 'T', artifact: { artifactId: 'a', parts }, append: false, lastChunk: true },
  { kind: 'status', taskId: 'T', status: { state: 'completed' } },
];
const of = <T extends TurnEvent['type']>(events: TurnEvent[], type: T) =>
  events.filter((e): e is Extract<TurnEvent, { type: T }> => e.type === type);

describe('A2UI surfaces in a turn', () => {
  it("the specification's shape: one part, a list of messages: one surface event with all three, the end and the view keep it", () => {
    const events = render(answer(part(FORM)));
    const [surface, ...more] = of(events, 'surface');
    expect(more).toEqual([]);
    expect(surface).toEqual({
      type: 'surface',
      surfaceId: 'form',
      messages: [
        { kind: 'createSurface', surfaceId: 'form', version: 'v1.0', message: FORM[0] },
        { kind: 'updateComponents', surfaceId: 'form', version: 'v1.0', message: FORM[1] },
        { kind: 'updateDataModel', surfaceId: 'form', version: 'v1.0', message: FORM[2] },
      ],
    });
    const end = events.at(-1) as Extract<TurnEvent, { type: 'end' }>;
    expect(end).toMatchObject({ outcome: 'completed', text: '', surfaces: [{ surfaceId: 'form', messages: surface!.messages }] });
    expect(end).not.toHaveProperty('replyMissing');
    expect(end).not.toHaveProperty('attachments');
    expect(events.reduce(reduceTurn, initialTurnView).surfaces).toEqual({ form: { surfaceId: 'form', messages: surface!.messages } });
  });

  it("the agent SDK's dialect: the other spelling, in mediaType or metadata, one message per part, v0.8 names too", () => {
    const v08 = [
      { beginRendering: { surfaceId: 'old', root: 'root' } },
      { surfaceUpdate: { surfaceId: 'old', components: [{ id: 'root', component: { Text: { text: { literalString: 'hi' } } } }] } },
    ];
    const events = render(
      answer(
        part(FORM[0], { mediaType: 'application/json+a2ui' }),
        part(FORM[1], { metadata: { mimeType: 'application/json+a2ui' } }),
        part(v08[0], { metadata: { mimeType: 'application/a2ui+json' } }),
        part(v08[1], { mediaType: 'Application/A2UI+JSON; charset=utf-8' }),
      ),
    );
    expect(of(events, 'surface').map((e) => [e.surfaceId, e.messages.map((m) => m.kind)])).toEqual([
      ['form', ['createSurface']],
      ['form', ['updateComponents']],
      ['old', ['beginRendering']],
      ['old', ['surfaceUpdate']],
    ]);
    expect(of(events, 'attachment')).toEqual([]);
  });

  it('a part seen again (a snapshot after the chunks) gives nothing again; a data part of another type stays an attachment', () => {
    const events = render([
      ...answer(part(FORM), { kind: 'data', data: { plain: true } }),
      {
        kind: 'task',
        task: { id: 'T', contextId: 'C', status: { state: 'completed' }, artifacts: [{ artifactId: 'a', parts: [part(FORM)] }] },
      },
    ]);
    expect(of(events, 'surface')).toHaveLength(1);
    expect(of(events, 'attachment')).toEqual([{ type: 'attachment', attachment: { kind: 'data', data: { plain: true } } }]);
  });

  it('refuses a URL a browser would run, a bomb, a malformed message: the rest of the part goes on', () => {
    const evil = components('form', [{ id: 'root', component: 'Image', url: ' javascript:alert(1)' }]);
    let deep: unknown = 'x';
    for (let i = 0; i < 40; i++) deep = { deep };
    const events = render(
      answer(part([FORM[0], evil, { nonsense: {} }, data('form', deep), data('form', 'x'.repeat(1_200_000)), FORM[2]])),
    );
    expect(of(events, 'surface-refused').map((e) => e.reason)).toEqual(['unsafe-url', 'malformed', 'too-deep', 'too-large']);
    expect(of(events, 'surface-refused')[0]).toMatchObject({
      surfaceId: 'form',
      message: expect.stringContaining('a URL a browser would run'),
    });
    expect(of(events, 'surface').map((e) => e.messages.map((m) => m.kind))).toEqual([['createSurface'], ['updateDataModel']]);
    expect(JSON.stringify(events)).not.toContain('alert(1)');
  });

  it("a refusal quotes nothing of what it refused: not a malformed message's keys, not a surfaceId that is itself the URL", () => {
    const events = render(
      answer(
        part([
          { 'javascript:alert(1)': {}, ['k'.repeat(100_000)]: {} },
          { version: 'v1.0', createSurface: { surfaceId: 'javascript:alert(2)', catalogId: 'c' } },
        ]),
      ),
    );
    const refused = of(events, 'surface-refused');
    expect(refused.map((e) => e.reason)).toEqual(['malformed', 'unsafe-url']);
    expect(refused[1]).not.toHaveProperty('surfaceId');
    expect(JSON.stringify(events)).not.toMatch(/alert|kkkk/);
    expect(Math.max(...refused.map((e) => JSON.stringify(e).length))).toBeLessThan(200);
  });

  it('bounds the surfaces and the components of one turn', () => {
    const many = Array.from({ length: MAX_SURFACES_PER_TURN + 2 }, (_, i) => create(`s${i}`));
    const tree = Array.from({ length: MAX_COMPONENTS_PER_SURFACE + 1 }, (_, i) => ({ id: `c${i}`, component: 'Text', text: 'x' }));
    const events = render(answer(part(many), part([components('s0', tree)])));
    expect(of(events, 'surface')).toHaveLength(MAX_SURFACES_PER_TURN);
    expect(of(events, 'surface-refused').map((e) => e.reason)).toEqual(['too-many-surfaces', 'too-many-surfaces', 'too-many-components']);
  });

  it('bounds the A2UI a turn takes in all: a part seen again is still given nothing, a new one past the budget is refused', () => {
    const big = (tag: string) =>
      part([create(`s-${tag}`), ...Array.from({ length: 6 }, (_, i) => data(`s-${tag}`, `${tag}${i}`.padEnd(900_000, 'x')))]);
    const events = render(answer(big('a'), big('a'), big('b')));
    expect(of(events, 'surface').map((e) => e.surfaceId)).toEqual(['s-a']);
    expect(of(events, 'surface-refused')).toEqual([
      { type: 'surface-refused', reason: 'too-large', message: expect.stringContaining('characters in this turn') },
    ]);
  });

  it('a deleted surface leaves the view and the end', () => {
    const events = render(answer(part([...FORM, { version: 'v1.0', deleteSurface: { surfaceId: 'form' } }])));
    expect((events.at(-1) as Extract<TurnEvent, { type: 'end' }>).surfaces).toBeUndefined();
    expect(events.reduce(reduceTurn, initialTurnView).surfaces).toEqual({});
  });
});
