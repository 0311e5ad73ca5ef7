/**
 * A turn as UI message chunks (`toUIMessageStream`, `sendMessages`), checked by the AI SDK's own
 * folding (`readUIMessageStream`) and, for a route, by its wire (`createUIMessageStreamResponse`
 * read back by `DefaultChatTransport`, which validates every chunk against the SDK's schema).
 */
import { createUIMessageStreamResponse, DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';
import { concat, NEVER, of, throwError } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { a2aChatTransport, replyTextOf, toUIMessageStream, type A2AUIMessageChunk } from '../../src/ai-sdk/index.js';
import { TurnChunks } from '../../src/ai-sdk/chunks.js';
import { A2AError, type AgentEvent, type Part } from '../../src/index.js';
import { createFakePort, ev, testCard } from '../../src/testing/index.js';
import { chunksOf, clientOf, foldChunks, submitHi } from './kit.js';

const AGENT = 'http://127.0.0.1:1/';
const artifact = (taskId: string, parts: Part[], flags: { append?: boolean; lastChunk?: boolean } = {}): AgentEvent => ({
  kind: 'artifact',
  taskId,
  artifact: { artifactId: 'a', parts },
  append: flags.append ?? false,
  lastChunk: flags.lastChunk ?? true,
});

/** The chunks of one turn whose agent streams `events`, through the transport. */
async function turnChunks(events: AgentEvent[]): Promise<A2AUIMessageChunk[]> {
  const port = createFakePort({ card: () => of(testCard()), stream: () => of(...events) });
  const transport = a2aChatTransport({ client: clientOf(port), agent: AGENT, handle: 'web', contextId: () => 'ctx-1' });
  const stream = await submitHi(transport);
  return chunksOf(stream);
}

describe('a turn as UI message chunks', () => {
  it('a streamed reply: start, the task, its status, the text as it grows, the outcome, finish; ai folds it into one message', async () => {
    const chunks = await turnChunks([
      ev.task('T', 'working'),
      ev.artifact('T', 'a', 'Hello, '),
      ev.artifact('T', 'a', 'world', { append: true, lastChunk: true }),
      ev.status('T', 'completed'),
    ]);
    expect(chunks).toEqual([
      { type: 'start' },
      { type: 'data-a2a-task', id: 'task', data: { taskId: 'T', contextId: 'ctx-1' } },
      { type: 'data-a2a-status', id: 'status', data: { state: 'working' } },
      { type: 'text-start', id: 'text-1' },
      { type: 'text-delta', id: 'text-1', delta: 'Hello, ' },
      { type: 'text-delta', id: 'text-1', delta: 'world' },
      { type: 'data-a2a-status', id: 'status', data: { state: 'completed' } },
      { type: 'text-end', id: 'text-1' },
      { type: 'data-a2a-task', id: 'task', data: { taskId: 'T', contextId: 'ctx-1', outcome: 'completed' } },
      { type: 'finish', finishReason: 'stop' },
    ]);
    const { message, errors } = await foldChunks(chunks);
    expect(errors).toEqual([]);
    expect(message?.parts).toEqual([
      { type: 'data-a2a-task', id: 'task', data: { taskId: 'T', contextId: 'ctx-1', outcome: 'completed' } },
      { type: 'data-a2a-status', id: 'status', data: { state: 'completed' } },
      { type: 'text', text: 'Hello, world', state: 'done', providerMetadata: undefined },
    ]);
  });

  it("a correction (the agent replaced its artifact): the old text part ends marked replaced, a new one holds the reply; the reply is the end's text", async () => {
    const chunks = await turnChunks([
      ev.task('T', 'working'),
      ev.artifact('T', 'a', 'A first draft'),
      ev.artifact('T', 'a', 'The answer', { lastChunk: true }),
      ev.status('T', 'completed'),
    ]);
    expect(chunks).toContainEqual({ type: 'text-end', id: 'text-1', providerMetadata: { a4h: { replaced: true } } });
    const { message } = await foldChunks(chunks);
    const texts = message!.parts.filter((part) => part.type === 'text');
    expect(texts.map((part) => [part.text, part.providerMetadata])).toEqual([
      ['A first draft', { a4h: { replaced: true } }],
      ['The answer', undefined],
    ]);
    expect(replyTextOf(message!)).toBe('The answer');
  });

  it('a replace that extends what is shown appends the rest to the same text part', () => {
    const chunks = new TurnChunks();
    chunks.of({ type: 'text', text: 'Hello', replace: false });
    expect(chunks.of({ type: 'text', text: 'Hello, world', replace: true })).toEqual([
      { type: 'text-delta', id: 'text-1', delta: ', world' },
    ]);
    expect(chunks.of({ type: 'text', text: '', replace: true })).toEqual([
      { type: 'text-end', id: 'text-1', providerMetadata: { a4h: { replaced: true } } },
    ]);
  });

  it('files as file parts (bytes as a data: URL, a URI as it came, the name kept), data parts as data-a2a-data', async () => {
    const bytes = new Uint8Array([137, 80, 78, 71, 0, 255]);
    const chunks = await turnChunks([
      ev.task('T', 'working'),
      artifact('T', [
        { kind: 'text', text: 'Here: ' },
        { kind: 'file', name: 'chart.png', mediaType: 'image/png', bytes },
        { kind: 'file', uri: 'https://files.example/report.pdf', mediaType: 'application/pdf' },
        { kind: 'data', data: { rows: 2 }, mediaType: 'application/json' },
      ]),
      ev.status('T', 'completed'),
    ]);
    const { message } = await foldChunks(chunks);
    const parts = message!.parts;
    expect(parts.filter((part) => part.type === 'file')).toEqual([
      { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,iVBORwD/', providerMetadata: { a4h: { filename: 'chart.png' } } },
      { type: 'file', mediaType: 'application/pdf', url: 'https://files.example/report.pdf' },
    ]);
    expect(parts.filter((part) => part.type === 'data-a2a-data')).toEqual([
      { type: 'data-a2a-data', data: { data: { rows: 2 }, mediaType: 'application/json' } },
    ]);
    expect(replyTextOf(message!)).toBe('Here: ');
  });

  it("the agent's progress and a question: the status part in place with its text, the question as the reply, outcome input-required and its interrupt", async () => {
    const chunks = await turnChunks([
      ev.task('Q', 'working'),
      ev.status('Q', 'working', 'Looking at the map…'),
      ev.status('Q', 'input-required', 'Which city?'),
    ]);
    const { message } = await foldChunks(chunks);
    expect(message!.parts).toEqual([
      {
        type: 'data-a2a-task',
        id: 'task',
        data: { taskId: 'Q', contextId: 'ctx-1', outcome: 'input-required', interrupt: { kind: 'input', text: 'Which city?' } },
      },
      { type: 'data-a2a-status', id: 'status', data: { state: 'input-required', text: 'Which city?' } },
      { type: 'text', text: 'Which city?', state: 'done', providerMetadata: undefined },
    ]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'other' });
  });

  it('a completed turn whose reply could not be read: finishReason other, never stop; the task data says why', () => {
    const chunks = new TurnChunks();
    const end = chunks.of({ type: 'end', outcome: 'completed', text: '', taskId: 'T', replyMissing: { reason: 'unread' } });
    expect(end).toEqual([
      { type: 'data-a2a-task', id: 'task', data: { taskId: 'T', outcome: 'completed', replyMissing: 'unread' } },
      { type: 'finish', finishReason: 'other' },
    ]);
    expect(new TurnChunks().of({ type: 'end', outcome: 'completed', text: '', taskId: 'T' }).at(-1)).toEqual({
      type: 'finish',
      finishReason: 'stop',
    });
  });

  it("an error: the error chunk carries a sentence by its kind, not the library's message (or errorText's); onError hears the whole error; ai reports it", async () => {
    const refused = new A2AError({ kind: 'card', message: 'could not fetch the agent card from http://10.0.0.7/: refused' });
    const port = createFakePort({ card: () => throwError(() => refused) });
    const events$ = clientOf(port).turn({ agent: AGENT, handle: 'web', thread: 't', text: 'hi' });
    const heard: unknown[] = [];
    const plain = await chunksOf(toUIMessageStream(events$, { onError: (error) => heard.push(error) }));
    expect(plain).toEqual([{ type: 'start' }, { type: 'error', errorText: 'The agent is not available.' }]);
    expect((await foldChunks(plain)).errors).toEqual(['Error: The agent is not available.']);
    expect(heard).toEqual([expect.objectContaining({ kind: 'card', message: expect.stringContaining('http://10.0.0.7/') })]);
    const hidden = await chunksOf(toUIMessageStream(events$, { errorText: () => 'The agent is unavailable.' }));
    expect(hidden.at(-1)).toEqual({ type: 'error', errorText: 'The agent is unavailable.' });
  });

  it("a framework's record as data-a2a-activity, never text", () => {
    const record = { adk_type: 'function_call', name: 'lookup' };
    expect(new TurnChunks().of({ type: 'activity', kind: 'function_call', name: 'lookup', data: record })).toEqual([
      { type: 'data-a2a-activity', data: { kind: 'function_call', name: 'lookup', data: record } },
    ]);
  });

  it('an error mid-reply ends the open text part before the error chunk', () => {
    const chunks = new TurnChunks();
    chunks.of({ type: 'text', text: 'Half', replace: false });
    expect(chunks.error(new Error('cut at http://10.0.0.7/'))).toEqual([
      { type: 'text-end', id: 'text-1' },
      { type: 'error', errorText: 'The reply failed.' },
    ]);
  });

  it('through a route: createUIMessageStreamResponse, read back by DefaultChatTransport (every chunk validated), the same message', async () => {
    const chunks = await turnChunks([
      ev.task('T', 'working'),
      artifact('T', [
        { kind: 'text', text: 'A chart: ' },
        { kind: 'file', name: 'c.png', mediaType: 'image/png', bytes: new Uint8Array([1, 2]) },
      ]),
      ev.artifact('T', 'a', 'Rewritten', { lastChunk: true }),
      ev.status('T', 'completed'),
    ]);
    const response = createUIMessageStreamResponse({
      stream: new ReadableStream({ start: (c) => (chunks.forEach((x) => c.enqueue(x)), c.close()) }),
    });
    const browser = new DefaultChatTransport<UIMessage>({ api: 'http://route.example/api/chat', fetch: async () => response });
    const read = await browser.sendMessages({
      chatId: 'c',
      trigger: 'submit-message',
      messageId: undefined,
      messages: [],
      abortSignal: undefined,
    });
    let message: UIMessage | undefined;
    for await (const snapshot of readUIMessageStream({ stream: read, terminateOnError: true })) message = snapshot;
    expect(message).toEqual((await foldChunks(chunks)).message);
    expect(replyTextOf(message!)).toBe('Rewritten');
  });

  it('a turn that never ends still streams what it has', async () => {
    const port = createFakePort({
      card: () => of(testCard()),
      stream: () => concat(of(ev.task('T', 'working'), ev.artifact('T', 'a', 'So far')), NEVER),
    });
    const stream = toUIMessageStream(clientOf(port).turn({ agent: AGENT, handle: 'web', thread: 't', text: 'hi' }));
    const reader = stream.getReader();
    const seen: A2AUIMessageChunk[] = [];
    while (!seen.some((chunk) => chunk.type === 'text-delta')) seen.push((await reader.read()).value!);
    expect(seen.at(-1)).toEqual({ type: 'text-delta', id: 'text-1', delta: 'So far' });
    await reader.cancel();
    await vi.waitFor(() => expect(port.calls).toContainEqual({ method: 'cancel', taskId: 'T' }));
  });

  it("the signal (a route's request closed): the turn is left, the agent gets CancelTask, the stream ends with abort", async () => {
    const port = createFakePort({
      card: () => of(testCard()),
      stream: () => concat(of(ev.task('T', 'working'), ev.artifact('T', 'a', 'Half')), NEVER),
    });
    const leave = new AbortController();
    const stream = toUIMessageStream(clientOf(port).turn({ agent: AGENT, handle: 'web', thread: 't', text: 'hi' }), {
      signal: leave.signal,
    });
    const reader = stream.getReader();
    while ((await reader.read()).value?.type !== 'text-delta');
    leave.abort();
    const rest: A2AUIMessageChunk[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) rest.push(next.value);
    expect(rest).toEqual([{ type: 'text-end', id: 'text-1' }, { type: 'abort' }]);
    await vi.waitFor(() => expect(port.calls).toContainEqual({ method: 'cancel', taskId: 'T' }));
  });
});
