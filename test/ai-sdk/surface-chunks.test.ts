/**
 * A2UI surfaces as UI message chunks: a turn's `surface` events fold into one `data-a2a-surface` part
 * per surface (id its surfaceId, updated in place), a refused message is a `data-a2a-surface-refused`
 * part; checked by the AI SDK's own folding and by a route's wire (every chunk validated).
 */
import { createUIMessageStreamResponse, DefaultChatTransport, type UIMessage } from 'ai';
import { of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { a2aChatTransport, historyToUIMessages, type A2AUIMessageChunk } from '../../src/ai-sdk/index.js';
import { TurnChunks } from '../../src/ai-sdk/chunks.js';
import type { AgentEvent, DataPart, HistoryExchange, SurfaceView } from '../../src/index.js';
import { createFakePort, ev, testCard } from '../../src/testing/index.js';
import { chunksOf, clientOf, foldChunks, submitHi } from './kit.js';

const AGENT = 'http://127.0.0.1:1/';
const create = (surfaceId: string) => ({
  version: 'v1.0',
  createSurface: { surfaceId, catalogId: 'https://a2ui.org/basic', sendDataModel: true },
});
const components = (surfaceId: string, text: string) => ({
  version: 'v1.0',
  updateComponents: { surfaceId, components: [{ id: 'root', component: 'Text', text }] },
});
const remove = (surfaceId: string) => ({ version: 'v1.0', deleteSurface: { surfaceId } });
const read = (message: Record<string, unknown>) => {
  const kind = Object.keys(message).find((key) => key !== 'version')!;
  return { kind, surfaceId: (message[kind] as { surfaceId: string }).surfaceId, version: 'v1.0', message };
};
const a2ui = (...messages: unknown[]): DataPart => ({ kind: 'data', data: messages, metadata: { mimeType: 'application/a2ui+json' } });
const artifact = (artifactId: string, ...parts: DataPart[]): AgentEvent => ({
  kind: 'artifact',
  taskId: 'T',
  artifact: { artifactId, parts },
  append: false,
  lastChunk: true,
});

async function turnChunks(events: AgentEvent[]): Promise<A2AUIMessageChunk[]> {
  const port = createFakePort({ card: () => of(testCard()), stream: () => of(...events) });
  const transport = a2aChatTransport({ client: clientOf(port), agent: AGENT, handle: 'web', contextId: () => 'ctx-1' });
  return chunksOf(await submitHi(transport));
}

describe('A2UI surfaces as data parts', () => {
  it('a surface drawn, then updated in another part: one data-a2a-surface part, id its surfaceId, holding every message so far', async () => {
    const chunks = await turnChunks([
      ev.task('T', 'working'),
      artifact('a', a2ui(create('form'), components('form', 'Pick one'))),
      artifact('b', a2ui(components('form', 'Picked'))),
      ev.status('T', 'completed'),
    ]);
    const first = [read(create('form')), read(components('form', 'Pick one'))];
    const all = [...first, read(components('form', 'Picked'))];
    expect(chunks.filter((chunk) => chunk.type === 'data-a2a-surface')).toEqual([
      { type: 'data-a2a-surface', id: 'form', data: { surfaceId: 'form', messages: first } },
      { type: 'data-a2a-surface', id: 'form', data: { surfaceId: 'form', messages: all } },
    ]);
    const { message, errors } = await foldChunks(chunks);
    expect(errors).toEqual([]);
    expect(message?.parts.filter((part) => part.type === 'data-a2a-surface')).toEqual([
      { type: 'data-a2a-surface', id: 'form', data: { surfaceId: 'form', messages: all } },
    ]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' }); // a surface is an answer: no replyMissing
  });

  it('two surfaces: a part each; a refused message (a javascript: URL) is a data-a2a-surface-refused part, the rest go on', async () => {
    const evil = {
      version: 'v1.0',
      updateComponents: { surfaceId: 'b', components: [{ id: 'root', component: 'Image', url: 'javascript:alert(1)' }] },
    };
    const chunks = await turnChunks([
      ev.task('T', 'working'),
      artifact('a', a2ui(create('a'), create('b'), evil, components('a', 'fine'))),
      ev.status('T', 'completed'),
    ]);
    const { message } = await foldChunks(chunks);
    expect(message?.parts.filter((part) => part.type.startsWith('data-a2a-surface'))).toEqual([
      { type: 'data-a2a-surface', id: 'a', data: { surfaceId: 'a', messages: [read(create('a')), read(components('a', 'fine'))] } },
      { type: 'data-a2a-surface', id: 'b', data: { surfaceId: 'b', messages: [read(create('b'))] } },
      { type: 'data-a2a-surface-refused', data: { reason: 'unsafe-url', message: expect.any(String), surfaceId: 'b' } },
    ]);
    expect(JSON.stringify(message)).not.toContain('alert(1)'); // nothing of the refused message reaches the page
  });

  it('a creation starts the part again; a deletion leaves the deleteSurface alone (a replaying renderer removes it)', () => {
    const turn = new TurnChunks();
    const surface = (...messages: Record<string, unknown>[]) =>
      turn.of({ type: 'surface', surfaceId: 's', messages: messages.map(read) as never })[0];
    surface(create('s'), components('s', 'one'));
    expect(surface(remove('s'))).toEqual({ type: 'data-a2a-surface', id: 's', data: { surfaceId: 's', messages: [read(remove('s'))] } });
    expect(surface(create('s'), components('s', 'two'))).toEqual({
      type: 'data-a2a-surface',
      id: 's',
      data: { surfaceId: 's', messages: [read(create('s')), read(components('s', 'two'))] },
    });
  });

  it('through a route: createUIMessageStreamResponse read back by DefaultChatTransport (every chunk validated), the same parts', async () => {
    const chunks = await turnChunks([
      ev.task('T', 'working'),
      artifact('a', a2ui(create('form'), components('form', 'Pick one'))),
      ev.status('T', 'completed'),
    ]);
    const response = createUIMessageStreamResponse({
      stream: new ReadableStream({ start: (c) => (chunks.forEach((x) => c.enqueue(x)), c.close()) }),
    });
    const browser = new DefaultChatTransport<UIMessage>({ api: 'http://route.example/api/chat', fetch: async () => response });
    const wire = await browser.sendMessages({
      chatId: 'c',
      trigger: 'submit-message',
      messageId: undefined,
      messages: [],
      abortSignal: undefined,
    });
    expect(await chunksOf(wire as ReadableStream<A2AUIMessageChunk>)).toEqual(chunks);
  });

  it('a history exchange that carries its surfaces: its reply message has a data-a2a-surface part per surface (none when it carries none)', () => {
    const views: SurfaceView[] = [{ surfaceId: 'form', messages: [read(create('form')), read(components('form', 'Pick one'))] as never }];
    const exchange: HistoryExchange = { taskId: 'T', user: [], reply: 'Here', state: 'completed', outcome: 'completed' };
    const [withSurfaces] = historyToUIMessages({ contextId: 'c', exchanges: [{ ...exchange, surfaces: views } as HistoryExchange] });
    expect(withSurfaces?.parts.filter((part) => part.type === 'data-a2a-surface')).toEqual([
      { type: 'data-a2a-surface', id: 'form', data: { surfaceId: 'form', messages: views[0]!.messages } },
    ]);
    const [without] = historyToUIMessages({ contextId: 'c', exchanges: [exchange] });
    expect(without?.parts.some((part) => part.type === 'data-a2a-surface')).toBe(false);
  });
});
