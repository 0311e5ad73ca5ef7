import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PushAnswer, PushReceiver } from '../push/receiver.js';

/** A request handler for Node's `http` (and express or fastify's raw request and reply). */
export type NodePushHandler = (request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void) => void;

/** What {@link pushHandler} takes besides the receiver. */
export interface PushHandlerOptions {
  /**
   * Whether a checked push of this request goes on to the turns that follow its thread (by default, every
   * one): a false one is checked and answered the same, and shown to no one — a post to another config's
   * URL, say, whose events this receiver's turns get from their own.
   */
  deliver?: (request: IncomingMessage) => boolean;
}

/** An answer as it is sent, without the hand-over. */
function taken(answer: PushAnswer): PushAnswer {
  const { deliver: _deliver, ...rest } = answer;
  return rest;
}

/**
 * A receiver as a request handler for Node's `http`: `http.createServer(pushHandler(receiver))`, or,
 * in express, `app.post('/a2a/push', pushHandler(receiver))` mounted before any body parser (the
 * handler reads the body itself, within the receiver's bound). It answers as soon as the push is
 * checked, then hands it to the turns that follow its thread. A body past the bound is answered 413
 * unread and its connection closed.
 */
export function pushHandler(receiver: PushReceiver, options: PushHandlerOptions = {}): NodePushHandler {
  return (request, response, next) => {
    receiver
      .receive({
        method: request.method ?? '',
        header: (name) => headerOf(request, name),
        body: (maxBytes) => readWithin(request, maxBytes),
      })
      .then((answer) => send(request, response, options.deliver === undefined || options.deliver(request) ? answer : taken(answer)))
      .catch((error: unknown) => {
        if (next !== undefined) return next(error);
        if (!response.headersSent) response.writeHead(500).end();
        else response.destroy();
      });
  };
}

function send(request: IncomingMessage, response: ServerResponse, answer: PushAnswer): void {
  // A body left unread (refused before it was read, or past the bound) is not drained: the connection closes after the answer.
  const unread = !request.readableEnded;
  response.writeHead(answer.status, unread ? { ...answer.headers, connection: 'close' } : answer.headers);
  response.end(() => {
    if (unread) request.socket.destroy();
  });
  answer.deliver?.();
}

function headerOf(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The body when it is at most `maxBytes`: a declared larger one is not read; one found larger stops being read. */
function readWithin(request: IncomingMessage, maxBytes: number): Promise<Uint8Array | undefined> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      request.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        done();
        request.pause();
        resolve(undefined);
      } else chunks.push(chunk);
    };
    const onEnd = (): void => {
      done();
      resolve(new Uint8Array(Buffer.concat(chunks, size)));
    };
    const onError = (error: Error): void => {
      done();
      reject(error);
    };
    const onAborted = (): void => onError(new Error('the request was aborted'));
    request.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted);
  });
}
