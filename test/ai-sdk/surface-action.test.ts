/**
 * An action on an A2UI surface through `useChat`'s own engine (`AbstractChat`, without React): the
 * person's message carries a `data-a2a-action` part, the transport sends it as `surfaceAction` builds
 * it against the surface the chat's reply created, and the agent's answer updates that surface.
 */
import { map, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { a2aChatTransport, type A2AActionData, type A2AUIMessage } from '../../src/ai-sdk/index.js';
import type { AgentEvent, DataPart, OutgoingMessage } from '../../src/index.js';
import { createFakePort, ev, testCard, type FakePort } from '../../src/testing/index.js';
import { withContext } from '../fake-events.js';
import { clientOf, NodeChat } from './kit.js';

const AGENT = 'http://127.0.0.1:1/';
const CONTEXT = 'ctx-1';
const MEDIA = 'application/a2ui+json';
const create = { version: 'v1.0', createSurface: { surfaceId: 'form', catalogId: 'https://a2ui.org/basic', sendDataModel: true } };
const picker = { version: 'v1.0', updateComponents: { surfaceId: 'form', components: [{ id: 'root', component: 'Text', text: 'Pick' }] } };
const answered = { version: 'v1.0', updateDataModel: { surfaceId: 'form', path: '/answer', value: 'You chose coffee' } };
const a2ui = (...messages: unknown[]): DataPart => ({ kind: 'data', data: messages, metadata: { mimeType: MEDIA } });

/** A turn of task `T<n>` whose artifact holds `parts`. */
const turn = (n: number, ...parts: DataPart[]) =>
  of<AgentEvent[]>(
    ev.task(`T${n}`, 'working'),
    { kind: 'artifact', taskId: `T${n}`, artifact: { artifactId: 'a', parts }, append: false, lastChunk: true },
    ev.status(`T${n}`, 'completed'),
  ).pipe(map((event) => withContext(event, CONTEXT)));

/** The form on the first turn, the answer on the form on the second. */
function formAgent(): FakePort {
  return createFakePort({
    card: () => of(testCard()),
    stream: (_message, n) => (n === 1 ? turn(1, a2ui(create, picker)) : turn(n, a2ui(answered))),
  });
}

const sentMessages = (port: FakePort): OutgoingMessage[] => port.calls.flatMap((call) => (call.method === 'stream' ? [call.message] : []));
const surfacesOf = (message: A2AUIMessage | undefined) => message?.parts.filter((part) => part.type === 'data-a2a-surface') ?? [];

function chatOn(port: FakePort, messages: A2AUIMessage[] = []) {
  const transport = a2aChatTransport({ client: clientOf(port), agent: AGENT, handle: 'web', contextId: () => CONTEXT });
  return new NodeChat<A2AUIMessage>({ id: 'thread-1', transport, messages });
}

const action: A2AActionData = {
  surfaceId: 'form',
  name: 'submit',
  sourceComponentId: 'go',
  context: { choice: ['coffee'] },
  dataModel: { choice: ['coffee'] },
  timestamp: '2026-01-01T00:00:00.000Z',
};

describe('an action on a surface, as the next message of useChat', () => {
  it('a data-a2a-action part goes as the A2UI action (in the surface version, its data model as the surface asked); the answer updates the surface', async () => {
    const port = formAgent();
    const chat = chatOn(port);
    await chat.sendMessage({ text: 'form please' });
    expect(surfacesOf(chat.messages[1])).toEqual([
      {
        type: 'data-a2a-surface',
        id: 'form',
        data: { surfaceId: 'form', messages: [expect.objectContaining({ message: create }), expect.objectContaining({ message: picker })] },
      },
    ]);

    await chat.sendMessage({ parts: [{ type: 'data-a2a-action', data: action }] });
    expect(chat.error).toBeUndefined();
    const sent = sentMessages(port)[1]!;
    expect(sent.text).toBe('');
    expect(sent.data).toEqual([
      {
        data: [
          {
            version: 'v1.0',
            action: {
              name: 'submit',
              surfaceId: 'form',
              sourceComponentId: 'go',
              timestamp: action.timestamp,
              context: { choice: ['coffee'] },
            },
          },
        ],
        mediaType: MEDIA,
        metadata: { mimeType: MEDIA },
      },
    ]);
    expect(sent.metadata).toEqual({ a2uiClientDataModel: { version: 'v1.0', surfaces: { form: { choice: ['coffee'] } } } });
    expect(sent.messageId).toBe(chat.messages[2]!.id);
    expect(surfacesOf(chat.messages[3])).toEqual([
      {
        type: 'data-a2a-surface',
        id: 'form',
        data: { surfaceId: 'form', messages: [expect.objectContaining({ kind: 'updateDataModel', message: answered })] },
      },
    ]);
  });

  it('a surface no reply of the chat created is refused before anything goes (a part the person forged in their own message is not one)', async () => {
    const port = formAgent();
    const forged: A2AUIMessage = {
      id: 'u-forged',
      role: 'user',
      parts: [
        {
          type: 'data-a2a-surface',
          id: 'elsewhere',
          data: { surfaceId: 'elsewhere', messages: [{ kind: 'createSurface', surfaceId: 'elsewhere', version: 'v1.0', message: create }] },
        },
      ],
    };
    const chat = chatOn(port, [forged]);
    await chat.sendMessage({ parts: [{ type: 'data-a2a-action', data: { ...action, surfaceId: 'elsewhere' } }] });
    expect(chat.status).toBe('error');
    expect(chat.error?.message).toContain('is not one the chat');
    expect(sentMessages(port)).toEqual([]);
  });

  it('an action part without its name is refused; a message without one is sent as before', async () => {
    const port = formAgent();
    const chat = chatOn(port);
    await chat.sendMessage({ text: 'form please' });
    await chat.sendMessage({ parts: [{ type: 'data-a2a-action', data: { surfaceId: 'form', sourceComponentId: 'go' } as A2AActionData }] });
    expect(chat.error?.message).toContain('needs its surfaceId, name and sourceComponentId');
    expect(sentMessages(port).map((message) => message.text)).toEqual(['form please']);
  });
});
