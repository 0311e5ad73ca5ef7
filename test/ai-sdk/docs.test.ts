/**
 * docs/ui.md's "The AI SDK": its component is examples/react-chat/src/chat.tsx verbatim (which the
 * browser test drives), and its route handlers run as written (TypeScript stripped by esbuild),
 * called by the AI SDK's own `DefaultChatTransport` over a client whose agent is a fake port.
 */
import * as ai from 'ai';
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';
import { transform } from 'esbuild';
import { readFileSync } from 'node:fs';
import { of, Subject, throwError } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import * as aiSdk from '../../src/ai-sdk/index.js';
import { A2AError, deriveContextId, type AgentEvent } from '../../src/index.js';
import { createFakePort, ev, task, testCard, type FakePort } from '../../src/testing/index.js';
import { clientOf, SECRET, userMessage } from './kit.js';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const section = (): string => {
  const page = read('../../docs/ui.md');
  return page.slice(page.indexOf('## The AI SDK'));
};

describe("docs/ui.md's AI SDK component", () => {
  it('is examples/react-chat/src/chat.tsx verbatim', () => {
    expect(/```tsx\n([\s\S]*?)```/.exec(section())?.[1]).toBe(read('../../examples/react-chat/src/chat.tsx'));
  });
});

type Route = {
  POST(request: Request): Promise<Response>;
  GET(request: Request, chatId: string): Promise<Response>;
  STOP(request: Request, chatId: string): Promise<Response>;
  initialMessages(user: string, chatId: string): Promise<UIMessage[]>;
};

/** The route snippet, run with `createA2A()` giving a client over `port` and the user from an `x-user` header. */
async function route(port: FakePort): Promise<Route> {
  const code = /\*\*Where the transport runs\.\*\*[\s\S]*?```ts\n([\s\S]*?)```/.exec(section())?.[1];
  if (code === undefined) throw new Error('no route snippet');
  const modules: Record<string, Record<string, unknown>> = {
    ai,
    'a4h-a2a/ai-sdk': aiSdk,
    'a4h-a2a/node': { createA2A: () => clientOf(port) },
  };
  const bindings: Record<string, unknown> = {};
  for (const [, names, from] of code.matchAll(/^import \{ ([^}]+) \} from '([^']+)';$/gm)) {
    for (const name of names!.split(',').map((n) => n.trim())) {
      if (name.startsWith('type ')) continue;
      expect(modules[from!]?.[name], `${name} from ${from}`).toBeDefined();
      bindings[name] = modules[from!]![name];
    }
  }
  const body = code.replace(/^import .*$/gm, '').replace(/^export /gm, '');
  const { code: js } = await transform(`${body}\nreturn { POST, GET, STOP, initialMessages };`, { loader: 'ts' });
  const scope = { ...bindings, signedInUser: async (request: Request) => request.headers.get('x-user') ?? 'nobody' };
  return new Function(...Object.keys(scope), js)(...Object.values(scope)) as Route;
}

/**
 * The requests being answered, held as a server holds them while it answers (a `Request` whose
 * signal follows the fetch's stops following it once it is collected).
 */
const answering: Request[] = [];

/** `useChat`'s default transport, its requests answered by the snippet's handlers, as a person signed in as `user`. */
const browserOf = (handlers: Route, user: string) =>
  new DefaultChatTransport<UIMessage>({
    api: 'http://app.example/api/chat',
    headers: { 'x-user': user },
    fetch: async (url, init) => {
      const request = new Request(url, init);
      answering.push(request);
      const stream = /\/api\/chat\/([^/]+)\/stream$/.exec(new URL(request.url).pathname);
      return stream ? handlers.GET(request, decodeURIComponent(stream[1]!)) : handlers.POST(request);
    },
  });

async function replyOf(stream: ReadableStream<ai.UIMessageChunk>): Promise<{ message: UIMessage | undefined; errors: string[] }> {
  const errors: string[] = [];
  let message: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({ stream, onError: (error) => errors.push(String(error)) })) message = snapshot;
  return { message, errors };
}

const send = (handlers: Route, user: string, text: string, abortSignal?: AbortSignal) =>
  browserOf(handlers, user).sendMessages({
    chatId: 'chat-1',
    trigger: 'submit-message',
    messageId: undefined,
    messages: [userMessage(text)],
    abortSignal,
  });

describe("docs/ui.md's AI SDK route handlers", () => {
  it("POST: a turn on the signed-in person's thread, streamed to useChat's DefaultChatTransport", async () => {
    const port = createFakePort({
      card: () => of(testCard()),
      stream: () => of(ev.task('T', 'working'), ev.artifact('T', 'a', 'Bonjour', { lastChunk: true }), ev.status('T', 'completed')),
    });
    const { message, errors } = await replyOf(await send(await route(port), 'ana', 'Hello'));
    expect(errors).toEqual([]);
    expect(aiSdk.replyTextOf(message!)).toBe('Bonjour');
    const contextId = await deriveContextId(SECRET, 'travel', 'web:ana:chat-1');
    expect(port.calls.find((call) => call.method === 'stream')).toMatchObject({ message: { text: 'Hello', contextId } });
  });

  it("an error says errorText's sentence, not the library's (which names the agent's address)", async () => {
    const refused = new A2AError({ kind: 'card', message: 'could not fetch the agent card from https://agent.internal/' });
    const port = createFakePort({ card: () => throwError(() => refused) });
    const { errors } = await replyOf(await send(await route(port), 'ana', 'Hello'));
    expect(errors).toEqual(['Error: The travel agent could not answer. Try again.']);
  });

  it('a closed request (Stop, or a reload) leaves the task running (detach): no CancelTask', async () => {
    const events = new Subject<AgentEvent>();
    const port = createFakePort({ card: () => of(testCard()), stream: () => events, cancel: (id) => of(task(id, 'canceled')) });
    const stop = new AbortController();
    const reader = (await send(await route(port), 'ana', 'slow', stop.signal)).getReader();
    await vi.waitFor(() => expect(events.observed).toBe(true));
    events.next(ev.task('T', 'working'));
    events.next(ev.artifact('T', 'a', 'Once'));
    while ((await reader.read()).value?.type !== 'text-delta');
    stop.abort();
    await vi.waitFor(() => expect(events.observed).toBe(false));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(port.calls.map((call) => call.method)).not.toContain('cancel');
  });

  it("STOP: the reply's task, found on the person's thread, gets CancelTask; another thread's task is refused, nothing cancelled", async () => {
    const contextId = await deriveContextId(SECRET, 'travel', 'web:ana:chat-1');
    // T is the person's; OTHER another thread's.
    const owned = (taskId: string) => ({ ...task(taskId, 'working'), contextId: taskId === 'T' ? contextId : 'someone-else' });
    const port = createFakePort({
      card: () => of(testCard()),
      getTask: (taskId) => of(owned(taskId)),
      resubscribe: (taskId) => of({ kind: 'task' as const, task: owned(taskId) }),
      cancel: (taskId) => of(task(taskId, 'canceled')),
    });
    const handlers = await route(port);
    const stop = (taskId: string) =>
      handlers.STOP(
        new Request('http://app.example/api/chat/chat-1/stop', {
          method: 'POST',
          headers: { 'x-user': 'ana' },
          body: JSON.stringify({ taskId }),
        }),
        'chat-1',
      );
    expect((await stop('T')).status).toBe(204);
    await vi.waitFor(() => expect(port.calls).toContainEqual({ method: 'cancel', taskId: 'T' }));
    await expect(stop('OTHER')).rejects.toMatchObject({ kind: 'foreign-task' });
    expect(port.calls).not.toContainEqual({ method: 'cancel', taskId: 'OTHER' });
  });

  it("GET: the reply in flight on the person's thread, from its start; 204 (null) when there is none", async () => {
    const resubscribed = new Subject<AgentEvent>();
    let listed = false;
    const port = createFakePort({
      card: () => of(testCard()),
      listTasks: (contextId) => of({ tasks: listed ? [] : [{ ...task('T', 'working'), contextId }] }),
      resubscribe: () => resubscribed,
    });
    const handlers = await route(port);
    const reconnected = browserOf(handlers, 'ana').reconnectToStream({ chatId: 'chat-1' });
    await vi.waitFor(() => expect(resubscribed.observed).toBe(true));
    const contextId = await deriveContextId(SECRET, 'travel', 'web:ana:chat-1');
    resubscribed.next({
      ...ev.task('T', 'working', { contextId, artifacts: [{ artifactId: 'a', parts: [{ kind: 'text', text: 'Half' }] }] }),
    });
    resubscribed.next({ ...ev.artifact('T', 'a', ' and the rest', { append: true, lastChunk: true }), contextId } as AgentEvent);
    resubscribed.next({ ...ev.status('T', 'completed'), contextId } as AgentEvent);
    resubscribed.complete();
    const { message } = await replyOf((await reconnected)!);
    expect(message?.id).toBe(aiSdk.replyMessageId('T'));
    expect(aiSdk.replyTextOf(message!)).toBe('Half and the rest');
    listed = true;
    expect(await browserOf(handlers, 'ana').reconnectToStream({ chatId: 'chat-1' })).toBeNull();
  });

  it("initialMessages: the person's thread's history as useChat messages", async () => {
    const port = createFakePort({
      card: () => of(testCard()),
      listTasks: (contextId) =>
        of({
          tasks: [{ ...task('T', 'completed', { artifacts: [{ artifactId: 'a', parts: [{ kind: 'text', text: 'Hi!' }] }] }), contextId }],
        }),
    });
    const messages = await (await route(port)).initialMessages('ana', 'chat-1');
    expect(messages.map((message) => [message.id, aiSdk.replyTextOf(message)])).toEqual([[aiSdk.replyMessageId('T'), 'Hi!']]);
    expect(port.calls.find((call) => call.method === 'listTasks')).toMatchObject({
      contextId: await deriveContextId(SECRET, 'travel', 'web:ana:chat-1'),
    });
  });
});
