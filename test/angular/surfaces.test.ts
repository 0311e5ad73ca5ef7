/** a2aConversation's A2UI surfaces across turns, the turn's refusals, and act() over the fake port (the kit: angular-kit.ts). */
import { of, Subject } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { MAX_CONVERSATION_SURFACES, type SurfaceView } from '../../src/angular/index.js';
import type { AgentEvent, DataPart, OutgoingMessage, Task } from '../../src/port/types.js';
import { createFakePort, ev, task, testCard, type FakePort } from '../../src/testing/index.js';
import { conversation, flush, methods, streaming, useInjectorCleanup } from './angular-kit.js';
import { withContext } from '../fake-events.js';

useInjectorCleanup();

const MIME = 'application/a2ui+json';
const create = (surfaceId: string) => ({
  version: 'v1.0',
  createSurface: { surfaceId, catalogId: 'https://a2ui.org/basic', sendDataModel: true },
});
const components = (surfaceId: string, text: string) => ({
  version: 'v1.0',
  updateComponents: { surfaceId, components: [{ id: 'root', component: 'Text', text }] },
});
const data = (surfaceId: string, value: unknown) => ({ version: 'v1.0', updateDataModel: { surfaceId, path: '/', value } });
const remove = (surfaceId: string) => ({ version: 'v1.0', deleteSurface: { surfaceId } });
const form = (surfaceId: string) => [create(surfaceId), components(surfaceId, 'Pick one'), data(surfaceId, { choice: ['tea'] })];

const part = (messages: unknown[]): DataPart => ({ kind: 'data', data: messages, metadata: { mimeType: MIME } });

/** Task `taskId` answers with these A2UI messages in one artifact, then completes. */
function answer(stream: Subject<AgentEvent>, context: string, taskId: string, messages: unknown[]): void {
  stream.next(withContext(ev.task(taskId, 'working'), context));
  stream.next(
    withContext(
      { kind: 'artifact', taskId, artifact: { artifactId: 'a', parts: [part(messages)] }, append: false, lastChunk: true },
      context,
    ),
  );
  stream.next(withContext(ev.status(taskId, 'completed'), context));
  stream.complete();
}

/** A port whose n-th stream is `streams[n - 1]`; `context()` the contextId of the last message streamed. */
function surfacePort(...streams: Subject<AgentEvent>[]): { port: FakePort; context: () => string } {
  let context = '';
  const port = createFakePort({
    card: () => of(testCard()),
    stream: (message, n) => {
      context = message.contextId ?? '';
      return streams[n - 1]!;
    },
    cancel: (taskId) => of<Task>(task(taskId, 'canceled')),
  });
  return { port, context: () => context };
}

const streamed = (port: FakePort): OutgoingMessage[] => port.calls.flatMap((call) => (call.method === 'stream' ? [call.message] : []));
const kinds = (surface: SurfaceView | undefined) => surface?.messages.map((message) => message.kind);

/** A conversation whose first turn drew the form `form-1`. */
async function drawn(...more: Subject<AgentEvent>[]) {
  const first = new Subject<AgentEvent>();
  const { port, context } = surfacePort(first, ...more);
  const chat = conversation(port);
  chat.send('form');
  await streaming(port);
  answer(first, context(), 'T1', form('form-1'));
  await flush();
  return { chat, port, context };
}

describe('a2aConversation: A2UI surfaces', () => {
  it('keeps the surface a turn drew, as its messages left it', async () => {
    const { chat } = await drawn();
    expect(chat.view()).toMatchObject({ phase: 'ended', outcome: 'completed' });
    expect(chat.surfaces()).toHaveLength(1);
    expect(chat.surfaces()[0]).toMatchObject({ surfaceId: 'form-1' });
    expect(kinds(chat.surfaces()[0])).toEqual(['createSurface', 'updateComponents', 'updateDataModel']);
    expect(chat.surfaces()[0]!.messages[0]!.message).toEqual(create('form-1'));
    expect(chat.surfacesRefused()).toEqual([]);
  });

  it('act() sends the action as a turn, and the answer updates the surface an earlier turn created', async () => {
    const second = new Subject<AgentEvent>();
    const { chat, port, context } = await drawn(second);
    const surface = chat.surfaces()[0]!;
    chat.act(surface, { name: 'submit', sourceComponentId: 'go', context: { choice: ['coffee'] }, dataModel: { choice: ['coffee'] } });
    await streaming(port, 2);
    const sent = streamed(port)[1]!;
    expect(sent.text).toBe('');
    expect(sent.data).toEqual([
      {
        data: [
          {
            version: 'v1.0',
            action: expect.objectContaining({
              name: 'submit',
              surfaceId: 'form-1',
              sourceComponentId: 'go',
              context: { choice: ['coffee'] },
            }),
          },
        ],
        mediaType: MIME,
        metadata: { mimeType: MIME },
      },
    ]);
    expect(sent.metadata).toEqual({ a2uiClientDataModel: { version: 'v1.0', surfaces: { 'form-1': { choice: ['coffee'] } } } });
    expect(chat.view()?.phase).toBe('running');
    expect(chat.surfaces()).toEqual([surface]); // still there while the action's turn runs

    answer(second, context(), 'T2', [data('form-1', { answer: 'You chose coffee' }), components('form-1', 'You chose coffee')]);
    await flush();
    expect(chat.view()).toMatchObject({ phase: 'ended', outcome: 'completed' });
    // The turn's own view holds only what it brought; the conversation's surface holds the whole of it.
    expect(kinds(chat.view()?.surfaces?.['form-1'])).toEqual(['updateDataModel', 'updateComponents']);
    expect(kinds(chat.surfaces()[0])).toEqual([
      'createSurface',
      'updateComponents',
      'updateDataModel',
      'updateDataModel',
      'updateComponents',
    ]);
    // …so a second action on it can be made (surfaceAction needs its creation).
    expect(() => chat.act(chat.surfaces()[0]!, { name: 'submit', sourceComponentId: 'go' })).not.toThrow();
  });

  it('a surface deleted by a later turn is gone; one drawn again keeps its place', async () => {
    const second = new Subject<AgentEvent>();
    const third = new Subject<AgentEvent>();
    const { chat, port, context } = await drawn(second, third);
    chat.send('more');
    await streaming(port, 2);
    answer(second, context(), 'T2', form('form-2'));
    await flush();
    expect(chat.surfaces().map((s) => s.surfaceId)).toEqual(['form-1', 'form-2']);
    chat.send('again');
    await streaming(port, 3);
    answer(third, context(), 'T3', [remove('form-2'), ...form('form-1')]);
    await flush();
    expect(chat.surfaces().map((s) => s.surfaceId)).toEqual(['form-1']);
    expect(kinds(chat.surfaces()[0])).toEqual(['createSurface', 'updateComponents', 'updateDataModel']);
  });

  it(`keeps at most ${MAX_CONVERSATION_SURFACES} surfaces, the oldest forgotten`, async () => {
    const second = new Subject<AgentEvent>();
    const { chat, port, context } = await drawn(second);
    chat.send('many');
    await streaming(port, 2);
    const ids = Array.from({ length: MAX_CONVERSATION_SURFACES }, (_, i) => `s${i}`);
    answer(
      second,
      context(),
      'T2',
      ids.flatMap((id) => [create(id)]),
    );
    await flush();
    expect(chat.surfaces().map((s) => s.surfaceId)).toEqual(ids);
  });

  it("shows the turn's refusals (a javascript: URL), the rest of the surface going on; the next turn starts with none", async () => {
    const second = new Subject<AgentEvent>();
    const third = new Subject<AgentEvent>();
    const { chat, port, context } = await drawn(second, third);
    chat.send('evil');
    await streaming(port, 2);
    const evil = {
      version: 'v1.0',
      updateComponents: { surfaceId: 'evil', components: [{ id: 'root', component: 'Image', url: 'javascript:alert(1)' }] },
    };
    answer(second, context(), 'T2', [create('evil'), evil]);
    await flush();
    expect(chat.surfacesRefused()).toEqual([expect.objectContaining({ type: 'surface-refused', reason: 'unsafe-url', surfaceId: 'evil' })]);
    expect(JSON.stringify(chat.surfacesRefused())).not.toContain('alert');
    expect(kinds(chat.surfaces().find((s) => s.surfaceId === 'evil'))).toEqual(['createSurface']);
    expect(chat.view()).toMatchObject({ phase: 'ended', outcome: 'completed' });

    chat.send('hello');
    await streaming(port, 3);
    expect(chat.surfacesRefused()).toEqual([]);
  });

  it('act() on a surface never created ends its turn with an input error, nothing sent', async () => {
    const { chat, port } = await drawn();
    chat.act({ surfaceId: 'nowhere', messages: [] }, { name: 'submit', sourceComponentId: 'go' });
    await flush();
    expect(chat.view()).toMatchObject({ phase: 'error', error: { kind: 'input' } });
    expect(methods(port).filter((m) => m === 'stream')).toHaveLength(1);
  });

  it('a resumed reply brings its surfaces too, and act() answers on them', async () => {
    let context = '';
    const resubscribed = new Subject<AgentEvent>();
    const action = new Subject<AgentEvent>();
    const port = createFakePort({
      card: () => of(testCard()),
      listTasks: (contextId) => {
        context = contextId;
        return of({ tasks: [{ ...task('T', 'working'), contextId }] });
      },
      resubscribe: () => resubscribed,
      stream: () => action,
      cancel: (taskId) => of<Task>(task(taskId, 'canceled')),
    });
    const chat = conversation(port);
    chat.resume();
    await vi.waitFor(() => expect(methods(port)).toContain('resubscribe'));
    answer(resubscribed, context, 'T', form('form-r'));
    await flush();
    expect(chat.view()).toMatchObject({ phase: 'ended', taskId: 'T' });
    expect(kinds(chat.surfaces()[0])).toEqual(['createSurface', 'updateComponents', 'updateDataModel']);
    chat.act(chat.surfaces()[0]!, { name: 'submit', sourceComponentId: 'go' });
    await streaming(port);
    expect(streamed(port)[0]?.data?.[0]?.data).toEqual([
      { version: 'v1.0', action: expect.objectContaining({ surfaceId: 'form-r', name: 'submit' }) },
    ]);
  });

  it('does nothing on the server', async () => {
    const { port } = surfacePort();
    const chat = conversation(port, {}, true);
    chat.act({ surfaceId: 'form-1', messages: [] }, { name: 'submit', sourceComponentId: 'go' });
    await flush();
    expect(chat.view()).toBeUndefined();
    expect(port.calls).toEqual([]);
  });
});
