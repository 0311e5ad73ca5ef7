import { describe, expect, it } from 'vitest';
import type { Attachment, TurnEvent } from '../../src/port/events.js';
import type { AgentEvent, Part } from '../../src/port/types.js';
import { TurnRenderer } from '../../src/render/renderer.js';
import { initialTurnView, reduceTurn } from '../../src/render/view.js';
import { TurnTask } from '../../src/turn/task.js';

/** Files, data and framework records through the renderer: once per part, whatever the agent repeats. */
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
const chart: Part = { kind: 'file', name: 'chart.png', mediaType: 'image/png', bytes: PNG };
const doc: Part = { kind: 'file', name: 'doc.pdf', mediaType: 'application/pdf', uri: 'https://files.example/doc.pdf' };
const table: Part = { kind: 'data', data: { rows: [1, 2] }, mediaType: 'application/json' };
const call: Part = {
  kind: 'data',
  data: { id: 'fc1', name: 'get_weather', args: { city: 'Paris' } },
  metadata: { adk_type: 'function_call' },
};
const answer: Part = {
  kind: 'data',
  data: { id: 'fc1', name: 'get_weather', response: { c: 21 } },
  metadata: { kagent_type: 'function_response' },
};
const text = (value: string): Part => ({ kind: 'text', text: value });

const chunk = (artifactId: string, parts: Part[], append = false, metadata?: Record<string, unknown>): AgentEvent => ({
  kind: 'artifact',
  taskId: 'T',
  artifact: { artifactId, parts, ...(metadata ? { metadata } : {}) },
  append,
  lastChunk: false,
});
const snapshot = (artifacts: { artifactId: string; parts: Part[] }[], state: 'working' | 'completed' = 'working'): AgentEvent => ({
  kind: 'task',
  task: { id: 'T', status: { state }, artifacts },
});
const status = (state: 'working' | 'completed', parts: Part[]): AgentEvent => ({
  kind: 'status',
  taskId: 'T',
  status: { state, message: { role: 'agent', parts, messageId: `m-${state}` } },
});
const done: AgentEvent = { kind: 'status', taskId: 'T', status: { state: 'completed' } };

function render(events: AgentEvent[], limits: ConstructorParameters<typeof TurnRenderer>[1] = {}): TurnEvent[] {
  const task = new TurnTask();
  const renderer = new TurnRenderer(task, limits);
  const out = events.flatMap((event) => (task.belongs(event) ? (task.observe(event), renderer.push(event)) : []));
  return [...out, ...renderer.finish()];
}
const attachments = (events: TurnEvent[]): Attachment[] => events.flatMap((e) => (e.type === 'attachment' ? [e.attachment] : []));
const end = (events: TurnEvent[]) => events.at(-1) as Extract<TurnEvent, { type: 'end' }>;

describe('attachments', () => {
  it('a file with bytes, a file with a URI and a data part: one event each, in order, and all in end', () => {
    const events = render([snapshot([]), chunk('A', [text('Here: '), chart]), chunk('B', [doc, table]), done]);
    const expected: Attachment[] = [
      { kind: 'file', name: 'chart.png', mediaType: 'image/png', size: PNG.length, bytes: PNG },
      { kind: 'file', name: 'doc.pdf', mediaType: 'application/pdf', uri: 'https://files.example/doc.pdf' },
      { kind: 'data', data: { rows: [1, 2] }, mediaType: 'application/json' },
    ];
    expect(attachments(events)).toEqual(expected);
    expect(end(events)).toMatchObject({ outcome: 'completed', text: 'Here: ', attachments: expected });
  });

  it('the bytes are the part’s own Uint8Array, never copied', () => {
    const events = render([snapshot([]), chunk('A', [chart]), done]);
    const file = attachments(events)[0]!;
    expect(file.kind === 'file' && file.bytes).toBe(PNG);
  });

  it('a part repeated by a replace, a snapshot and a status message is emitted once', () => {
    const copy = Uint8Array.from(PNG); // the same content in another buffer (a new decode of the same base64)
    const events = render([
      snapshot([]),
      chunk('A', [text('a'), chart]),
      chunk('A', [text('b')], true),
      chunk('A', [text('ab'), { ...chart, bytes: copy }]), // ADK's closing replace
      snapshot([{ artifactId: 'A', parts: [text('ab'), chart] }]),
      status('completed', [text('done'), chart]),
    ]);
    expect(attachments(events)).toHaveLength(1);
    expect(end(events).attachments).toHaveLength(1);
  });

  it('another file with the same name and size but other bytes is another attachment', () => {
    const other = Uint8Array.from(PNG).fill(7, 4);
    const events = render([snapshot([]), chunk('A', [chart]), chunk('A', [{ ...chart, bytes: other }]), done]);
    expect(attachments(events)).toHaveLength(2);
  });

  it('a partial (delta) chunk’s parts wait for the closing chunk', () => {
    const events = render([
      snapshot([]),
      chunk('A', [text('He'), chart], false, { adk_partial: true }),
      chunk('A', [text('Hello'), chart]),
      done,
    ]);
    expect(attachments(events)).toHaveLength(1);
    expect(events.findIndex((e) => e.type === 'attachment')).toBeGreaterThan(events.findIndex((e) => e.type === 'text'));
  });

  it('a message-only answer carries its files', () => {
    const events = render([{ kind: 'message', message: { role: 'agent', parts: [text('hi'), doc] } }]);
    expect(end(events)).toMatchObject({ text: 'hi', attachments: [{ kind: 'file', name: 'doc.pdf' }] });
  });

  it('user echoes carry no attachments', () => {
    const events = render([
      { kind: 'task', task: { id: 'T', status: { state: 'working', message: { role: 'user', parts: [chart] } }, artifacts: [] } },
      done,
    ]);
    expect(attachments(events)).toEqual([]);
    expect(end(events).attachments).toBeUndefined();
  });

  it('framework records (ADK adk_type, kagent typed) are activity, never attachments nor reply', () => {
    const events = render([
      snapshot([]),
      status('working', [call]),
      chunk('tools', [answer]),
      status('working', [call]),
      chunk('A', [text('21°C')]),
      done,
    ]);
    expect(events.filter((e) => e.type === 'activity')).toEqual([
      { type: 'activity', kind: 'function_call', name: 'get_weather', data: call.kind === 'data' && call.data },
      { type: 'activity', kind: 'function_response', name: 'get_weather', data: answer.kind === 'data' && answer.data },
    ]);
    expect(attachments(events)).toEqual([]);
    expect(end(events)).toMatchObject({ text: '21°C' });
  });

  it('maxAttachmentBytes and maxAttachments end the turn with a protocol error', () => {
    expect(() => render([snapshot([]), chunk('A', [chart]), done], { maxAttachmentBytes: PNG.length - 1 })).toThrow(/maxAttachmentBytes/);
    expect(() => render([snapshot([]), chunk('A', [chart, doc]), done], { maxAttachments: 1 })).toThrow(/maxAttachments/);
    // A repeat costs nothing: the same part again is within the bounds.
    expect(() =>
      render([snapshot([]), chunk('A', [chart]), chunk('A', [chart]), done], { maxAttachmentBytes: PNG.length, maxAttachments: 1 }),
    ).not.toThrow();
  });

  it('text-only turns emit no attachment event and no attachments field', () => {
    const events = render([snapshot([]), chunk('A', [text('plain')]), done]);
    expect(events.some((e) => e.type === 'attachment' || e.type === 'activity')).toBe(false);
    expect(end(events)).toEqual({ type: 'end', outcome: 'completed', text: 'plain', taskId: 'T' });
  });
});

describe('the view', () => {
  it('collects attachments, shows the latest activity, takes end’s list; the input view is never mutated', () => {
    const events = render([snapshot([]), status('working', [call]), chunk('A', [text('x'), chart, table]), done]);
    const views = [initialTurnView];
    for (const event of events) views.push(reduceTurn(views.at(-1)!, event));
    const before = JSON.stringify(views.map((v) => v.attachments?.length ?? 0));
    const withActivity = views.find((v) => v.activity !== undefined);
    expect(withActivity?.activity).toEqual({ kind: 'function_call', name: 'get_weather' });
    const last = views.at(-1)!;
    expect(last.attachments).toEqual(end(events).attachments);
    expect(last.activity).toBeUndefined();
    expect(JSON.stringify(views.map((v) => v.attachments?.length ?? 0))).toBe(before);
    expect(views.map((v) => v.attachments?.length ?? 0)).toContain(1);
  });
});
