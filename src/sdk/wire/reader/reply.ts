import { Observable } from 'rxjs';
import { A2AError } from '../../../errors.js';
import { readBody } from '../../http/body.js';
import { classifySdkError, type CallContext } from '../classify/sdk-errors.js';
import { callFor } from '../../http/credentials/callers.js';
import { isError, isOwnAnswer, parseJson, rpcError } from './envelope.js';
import { nextRpcId, type ReaderOptions } from './json-rpc.js';
import { refusal } from './refusal.js';

/** One unary JSON-RPC call: where, what, and in which protocol generation (the `A2A-Version` header). */
export interface ReplyRequest {
  endpoint: string;
  method: string;
  params: unknown;
  version: string;
}

/** How the reader reaches the agent, and the largest answer it reads whole. */
export interface ReplyOptions extends Omit<ReaderOptions, 'maxEventChars'> {
  maxBytes: number;
  /** Told of the call's abort signal before the request: the fetch under it must pass its answer on as it came. */
  readsItself: (signal: AbortSignal) => void;
}

/**
 * A unary JSON-RPC call read by the client itself: the request as the SDK's JSON-RPC client writes
 * it, the answer read once (bounded by `maxBytes`, as every answer read whole is) and parsed once,
 * its envelope checked as the SDK checks it (`jsonrpc` "2.0", the request's id by {@link isOwnAnswer}: an
 * id echoed as `"1"` for `1`, or `null`, is the request's), its result handed to `map`. A refused answer is read
 * as the stream reader reads one ({@link refusal}); every failure is classified after `site`.
 *
 * The fetch is told of the call (`readsItself`) so that nothing under it reads the answer first. Cold: the request starts on subscribe and is aborted on unsubscribe.
 */
export function readReply<T>(options: ReplyOptions, request: ReplyRequest, site: CallContext, map: (result: unknown) => T): Observable<T> {
  return new Observable<T>((subscriber) => {
    const controller = new AbortController();
    const { signal } = controller;
    let settled = false;
    callFor(signal, options.caller);
    options.readsItself(signal);
    let status: number | undefined;
    let retryAfterMs: number | undefined;
    const call = async (): Promise<T> => {
      const id = nextRpcId();
      const response = await options.fetch(request.endpoint, {
        method: 'POST',
        headers: { ...options.headers, 'Content-Type': 'application/json', Accept: 'application/json', 'A2A-Version': request.version },
        body: JSON.stringify({ jsonrpc: '2.0', method: request.method, params: request.params, id }),
        signal,
      });
      if (!response.ok) {
        const refused = await refusal(response);
        ({ status, retryAfterMs } = refused);
        throw refused.error;
      }
      // No body is no answer (read as such below), whatever its Content-Length says.
      const text =
        response.body === null ? '' : await readBody(response, { maxBytes: options.maxBytes, tooLarge: () => tooLarge(options.maxBytes) });
      return map(resultOf(text, request.method, id));
    };
    call().then(
      (value) => {
        settled = true;
        subscriber.next(value);
        subscriber.complete();
      },
      (error: unknown) => {
        settled = true;
        if (signal.aborted) return;
        const seen = { ...site, ...(status === undefined ? {} : { status }), ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
        subscriber.error(classifySdkError(error, seen));
      },
    );
    // Abort only a call still in flight: aborting a finished one costs a DOMException for nothing.
    return () => {
      if (!settled) controller.abort();
    };
  });
}

/** The result of a reply's text, its envelope checked as the SDK checks it; the agent's error thrown as such. */
function resultOf(text: string, method: string, id: number): unknown {
  const envelope = parseJson(text);
  if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope)) {
    throw new A2AError({ kind: 'protocol', message: `the ${method} answer is not a JSON object (${text.slice(0, 80)})` });
  }
  const said = (envelope as { jsonrpc?: unknown }).jsonrpc;
  if (said !== '2.0') {
    throw new A2AError({
      kind: 'protocol',
      message: `the ${method} answer is not JSON-RPC 2.0 (jsonrpc ${JSON.stringify(said) ?? 'missing'})`,
    });
  }
  if (isError(envelope)) throw rpcError(envelope.error);
  const echoed = (envelope as { id?: unknown }).id;
  if (!isOwnAnswer(echoed, id)) {
    throw new A2AError({
      kind: 'protocol',
      message: `the ${method} answer is another call's (id ${JSON.stringify(echoed) ?? 'missing'}, not ${id})`,
    });
  }
  return (envelope as { result?: unknown }).result;
}

/** The error of an answer read whole that is past the bound (`maxResponseBytes`). */
export function tooLarge(maxBytes: number): A2AError {
  return new A2AError({ kind: 'protocol', message: `the agent's answer is larger than ${maxBytes} bytes (maxResponseBytes)` });
}
