/**
 * a2aConversation's A2UI surfaces from the thread's past (its history exchanges' `surfaces`) over the fake port
 * (the kit: angular-kit.ts): drawn as they stand, acted on, updated by the answer; pages loaded in any order;
 * a surface a turn deleted not brought back by an earlier page; the resumed task's surface not doubled.
 */
import { delay, of, Subject } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { type A2AConversation, type SurfaceView } from '../../src/angular/index.js';
import type { AgentEvent, OutgoingMessage, Task } from '../../src/port/types.js';
import { createFakePort, ev, task, testCard, type FakePort } from '../../src/testing/index.js';
import { withContext } from '../fake-events.js';
import { conversation, flush, streaming, useInjectorCleanup } from './angular-kit.js';

useInjectorCleanup();

const MIME = 'application/a2ui+json';
const create = (surfaceId: string) => ({ version: 'v1.0', createSurface: { surfaceId, catalogId: 'https://a2ui.org/basic' } });
const components = (surfaceId: string, text: string) => ({
  version: 'v1.0',
  updateComponents: { surfaceId, components: [{ id: 'root', component: 'Text', text }] },
});
const data = (surfaceId: string, value: unknown) => ({ version: 'v1.0', updateDataModel: { surfaceId, path: '/', value } });
const remove = (surfaceId: string) => ({ version: 'v1.0', deleteSurface: { surfaceId } });
const form = (surfaceId: string) => [create(surfaceId), components(surfaceId, 'Pick one'), data(surfaceId, { choice: ['tea'] })];
const answered = (surfaceId: string, choice: string) => [data(surfaceId, { answer: choice }), components(surfaceId, `You chose ${choice}`)];

/** A task of the thread as ListTasks lists it, completed, its A2UI messages in one artifact. */
const listed = (id: string, messages: unknown[]): Task => ({
  ...task(id, 'completed', { artifacts: [{ artifactId: 'a', parts: [{ kind: 'data', data: messages, metadata: { mimeType: MIME } }] }] }),
  history: [{ role: 'user', parts: [{ kind: 'text', text: `to ${id}` }], messageId: `m-${id}` }],
});

/**
 * A port whose ListTasks answers `pages` in turn (newest task first), a macrotask later, its tasks in the
 * listed contextId; whose n-th stream is `streams[n - 1]`; `context()` the contextId listed.
 */
function pastPort(pages: { tasks: Task[]; nextPageToken?: string }[], ...streams: Subject<AgentEvent>[]) {
  let context = '';
  const port = createFakePort({
    card: () => of(testCard()),
    listTasks: (contextId, n) => {
      context = contextId;
      const { tasks, nextPageToken } = pages[Math.min(n, pages.length) - 1]!;
      return of({ tasks: tasks.map((one) => ({ ...one, contextId })), ...(nextPageToken ? { nextPageToken } : {}) }).pipe(delay(1));
    },
    stream: (_message, n) => streams[n - 1]!,
    cancel: (taskId) => of<Task>(task(taskId, 'canceled')),
  });
  return { port, context: () => context };
}

/** Task `taskId` answers with these A2UI messages in one artifact, then completes. */
function answer(stream: Subject<AgentEvent>, context: string, taskId: string, messages: unknown[]): void {
  stream.next(withContext(ev.task(taskId, 'working'), context));
  const artifact = { artifactId: 'a', parts: [{ kind: 'data' as const, data: messages, metadata: { mimeType: MIME } }] };
  stream.next(withContext({ kind: 'artifact', taskId, artifact, append: false, lastChunk: true }, context));
  stream.next(withContext(ev.status(taskId, 'completed'), context));
  stream.complete();
}

const kinds = (surface: SurfaceView | undefined) => surface?.messages.map((message) => message.kind);
const ids = (chat: A2AConversation) => chat.surfaces().map((surface) => surface.surfaceId);
const streamed = (port: FakePort): OutgoingMessage[] => port.calls.flatMap((call) => (call.method === 'stream' ? [call.message] : []));
const loaded = (chat: A2AConversation, n: number) => vi.waitFor(() => expect(chat.history()).toHaveLength(n));

describe('a2aConversation: A2UI surfaces of the past', () => {
  it('draws a past form as it stands (created in one exchange, answered in the next); act() on it; the answer updates it', async () => {
    const action = new Subject<AgentEvent>();
    const { port, context } = pastPort([{ tasks: [listed('T2', answered('form-1', 'coffee')), listed('T1', form('form-1'))] }], action);
    const chat = conversation(port);
    expect(chat.surfaces()).toEqual([]);
    chat.loadEarlier();
    await loaded(chat, 2);
    expect(ids(chat)).toEqual(['form-1']);
    const surface = chat.surfaces()[0]!;
    expect(kinds(surface)).toEqual(['createSurface', 'updateComponents', 'updateDataModel', 'updateDataModel', 'updateComponents']);
    expect(chat.history().map((exchange) => exchange.surfaces?.map((one) => one.surfaceId))).toEqual([['form-1'], ['form-1']]);
    // The past's surface names the agent that drew it: the action goes there only.
    expect(surface.agent).toMatch(/agent-card\.json$/);

    chat.act(surface, { name: 'submit', sourceComponentId: 'go', context: { choice: ['water'] } });
    await streaming(port);
    expect(streamed(port)[0]!.data).toEqual([
      {
        data: [
          { version: 'v1.0', action: expect.objectContaining({ name: 'submit', surfaceId: 'form-1', context: { choice: ['water'] } }) },
        ],
        mediaType: MIME,
        metadata: { mimeType: MIME },
      },
    ]);
    answer(action, context(), 'T3', answered('form-1', 'water'));
    await flush();
    expect(chat.view()).toMatchObject({ phase: 'ended', outcome: 'completed' });
    expect(ids(chat)).toEqual(['form-1']);
    const now = chat.surfaces()[0]!;
    expect(kinds(now)).toHaveLength(7);
    expect(now.messages.slice(0, 5)).toEqual(surface.messages); // the past's, the same objects, then the answer
    expect(now.messages.at(-1)!.message).toEqual(components('form-1', 'You chose water'));
    expect(now.agent).toBe(surface.agent);
  });

  it('an answer on the newest page, its form on the earlier one: whole once "Load earlier" brings it, in its first place', async () => {
    const { port } = pastPort([
      { tasks: [listed('T3', answered('form-1', 'tea')), listed('T2', form('form-2'))], nextPageToken: 'p2' },
      { tasks: [listed('T1', form('form-1'))] },
    ]);
    const chat = conversation(port, { historyLimit: 2 });
    chat.loadEarlier();
    await loaded(chat, 2);
    expect(ids(chat)).toEqual(['form-2', 'form-1']);
    expect(kinds(chat.surfaces()[1])).toEqual(['updateDataModel', 'updateComponents']);
    chat.loadEarlier();
    await loaded(chat, 3);
    expect(ids(chat)).toEqual(['form-1', 'form-2']);
    expect(kinds(chat.surfaces()[0])).toEqual([
      'createSurface',
      'updateComponents',
      'updateDataModel',
      'updateDataModel',
      'updateComponents',
    ]);
  });

  it('a surface a turn deleted stays gone when an earlier page brings it; one a turn draws again replaces the past’s', async () => {
    const [first, second] = [new Subject<AgentEvent>(), new Subject<AgentEvent>()];
    const { port, context } = pastPort(
      [{ tasks: [listed('T2', form('form-2'))], nextPageToken: 'p2' }, { tasks: [listed('T1', form('form-1'))] }],
      first,
      second,
    );
    const chat = conversation(port, { historyLimit: 1 });
    chat.loadEarlier();
    await loaded(chat, 1);
    chat.send('drop it');
    await streaming(port);
    answer(first, context(), 'T3', [remove('form-2'), remove('form-1')]);
    await flush();
    expect(ids(chat)).toEqual([]);
    chat.loadEarlier();
    await loaded(chat, 2);
    expect(ids(chat)).toEqual([]);

    chat.send('again');
    await streaming(port, 2);
    answer(second, context(), 'T4', [create('form-1')]);
    await flush();
    expect(ids(chat)).toEqual(['form-1']);
    expect(kinds(chat.surfaces()[0])).toEqual(['createSurface']);
  });

  it('a page of the past after the turns: the past’s surfaces first, then the turns’', async () => {
    const turn = new Subject<AgentEvent>();
    const { port, context } = pastPort([{ tasks: [listed('T1', form('form-1'))] }], turn);
    const chat = conversation(port);
    chat.send('new');
    await streaming(port);
    answer(turn, context(), 'T2', form('form-2'));
    await flush();
    expect(ids(chat)).toEqual(['form-2']);
    chat.loadEarlier();
    await loaded(chat, 1);
    expect(ids(chat)).toEqual(['form-1', 'form-2']);
  });
});
