/**
 * A turn as a `ReadableStream` of UI message chunks: the stream is where the turn's Observable meets
 * the AI SDK's promises and streams. Cancelling the stream, or aborting its signal, unsubscribes the
 * turn (which, as any turn left before its end, cancels the agent's task unless it detaches).
 */
import type { Observable, Subscription } from 'rxjs';
import { isA2AError } from '../errors.js';
import type { TurnEvent } from '../port/events.js';
import { TurnChunks } from './chunks.js';
import { publicErrorText } from './error-text.js';
import type { A2AUIMessageChunk } from './chunk-types.js';

/** Options of {@link toUIMessageStream}. */
export interface UIMessageStreamOptions {
  /**
   * Leaving: when it aborts, the turn is unsubscribed (its task gets CancelTask, unless the turn
   * detaches) and the stream ends with an `abort` chunk. `useChat`'s Stop aborts the signal it
   * gives the transport; a route handler passes its request's.
   */
  signal?: AbortSignal;
  /**
   * The `errorText` of the `error` chunk a failed turn ends with. Default: `publicErrorText`, a
   * sentence by the error's kind, without the agent's URL or words (the library's message names
   * them: the chunk goes to the browser).
   */
  errorText?: (error: unknown) => string;
  /** Hears the whole error of a failed turn (or resume), on the side that runs it: to log it. */
  onError?: (error: unknown) => void;
}

/** When the stream opens: at once (a turn), or at the agent's task (a resume; nothing found: none). */
type Opening = { at: 'once' } | { at: 'task'; messageId: (taskId: string) => string };

/** Where {@link feedTurn} hands its stream, or says there is none. */
interface Outlet {
  /** The stream opened. */
  opened(stream: ReadableStream<A2AUIMessageChunk>): void;
  /** A resume ended (or failed as `unsupported`, or its signal aborted) before it found a task. */
  none(): void;
  /** A resume failed before it found a task. */
  failed(error: unknown): void;
}

/**
 * Subscribes `turn$` and feeds its chunks into a stream, opened as `opening` says (at once: before
 * the turn is subscribed). Cancelling the stream or aborting the signal unsubscribes the turn.
 */
function feedTurn(turn$: Observable<TurnEvent>, options: UIMessageStreamOptions, opening: Opening, outlet: Outlet): void {
  const chunks = new TurnChunks(options.errorText ?? publicErrorText);
  const signal = options.signal;
  let controller: ReadableStreamDefaultController<A2AUIMessageChunk> | undefined;
  let subscription: Subscription | undefined;
  let stopped = false;
  const stop = (): void => {
    stopped = true;
    signal?.removeEventListener('abort', onAbort);
    subscription?.unsubscribe();
  };
  const push = (list: readonly A2AUIMessageChunk[]): void => {
    for (const chunk of list) controller?.enqueue(chunk);
  };
  const finish = (list: readonly A2AUIMessageChunk[]): void => {
    signal?.removeEventListener('abort', onAbort);
    if (controller === undefined) return opening.at === 'task' ? outlet.none() : undefined;
    const open = controller;
    controller = undefined;
    for (const chunk of list) open.enqueue(chunk);
    open.close();
  };
  const open = (messageId?: string): void => {
    outlet.opened(
      new ReadableStream<A2AUIMessageChunk>({
        start: (opened) => {
          controller = opened;
          opened.enqueue(messageId === undefined ? { type: 'start' } : { type: 'start', messageId });
        },
        cancel: () => {
          controller = undefined;
          stop();
        },
      }),
    );
  };
  function onAbort(): void {
    stop();
    finish(chunks.abort());
  }

  if (opening.at === 'once') open();
  if (signal?.aborted) return onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  subscription = turn$.subscribe({
    next: (event) => {
      if (controller === undefined && opening.at === 'task' && event.type === 'task') open(opening.messageId(event.taskId));
      push(chunks.of(event));
    },
    error: (error: unknown) => {
      options.onError?.(error);
      if (controller !== undefined || opening.at === 'once' || isA2AError(error, 'unsupported')) return finish(chunks.error(error));
      signal?.removeEventListener('abort', onAbort);
      outlet.failed(error);
    },
    complete: () => finish([]),
  });
  if (stopped) subscription.unsubscribe();
}

/**
 * A resumed turn's stream, opened when the agent's task is known (its `start` names `messageId(taskId)`):
 * null when the resume finds nothing unfinished, the agent lists no tasks (`unsupported`), or the
 * signal aborts first; its other failures before the task reject.
 */
export function resumedStream(
  resume$: Observable<TurnEvent>,
  options: UIMessageStreamOptions,
  messageId: (taskId: string) => string,
): Promise<ReadableStream<A2AUIMessageChunk> | null> {
  return new Promise((resolve, reject) =>
    feedTurn(resume$, options, { at: 'task', messageId }, { opened: resolve, none: () => resolve(null), failed: reject }),
  );
}

/**
 * A turn (or a resumed one) as a stream of UI message chunks, for a route handler:
 * `createUIMessageStreamResponse({ stream: toUIMessageStream(a2a.turn(…), { signal: request.signal }) })`.
 * It subscribes the turn at once. The chunks: `start`; the reply as text parts; files as file
 * parts; `data-a2a-task` (the task, then its outcome), `data-a2a-status` (the agent's status, in
 * place), `data-a2a-data` and `data-a2a-activity`; `finish` at the end, or an `error` chunk.
 */
export function toUIMessageStream(turn$: Observable<TurnEvent>, options: UIMessageStreamOptions = {}): ReadableStream<A2AUIMessageChunk> {
  let stream: ReadableStream<A2AUIMessageChunk> | undefined;
  feedTurn(turn$, options, { at: 'once' }, { opened: (opened) => (stream = opened), none: () => undefined, failed: () => undefined });
  // Opened before the turn was subscribed.
  return stream!;
}
