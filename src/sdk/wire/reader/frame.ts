import type { StreamResponse } from '@a2a-js/sdk';
import { A2AError } from '../../../errors.js';
import { isError, parseJson, rpcError } from './envelope.js';
import { toStreamResponse, type StreamIds } from './results.js';

/** What becomes of each result of a stream, and which result is its last word. */
export interface StreamMapping<T> {
  /** Each result, as the SDK's `StreamResponse`, to what the caller emits. */
  map: (response: StreamResponse) => T;
  /**
   * The same, straight from a result's JSON, for the shapes it knows (undefined for any other, which
   * then takes `map`); it must give what `map` gives and remember the same ids.
   */
  fast?: (result: unknown, ids: StreamIds) => T | undefined;
  /**
   * The same, straight from a frame's text without parsing it, for the exact frames it knows
   * (undefined for any other, which is then parsed); `echo` is the call's JSON-RPC id as frames write it.
   */
  scan?: (data: string, echo: string, ids: StreamIds) => T | undefined;
  /** Emitted for a sign of life (an SSE comment, bytes that completed no event), at most one per 100 ms. */
  alive?: T;
  /**
   * True for a value after which the agent has nothing more to say (a settled task). When the
   * consumer leaves right after such a value, the rest of the body is read and dropped rather than
   * the request aborted, so the connection goes back to the pool (an aborted body costs a socket).
   */
  ends?: (value: T) => boolean;
  /**
   * What the SDK's codec does not read, taken from the result's JSON onto the value the general path
   * made (A2A 1.1's `generation`); the fast and scanned paths read only shapes without it.
   */
  stamp?: (value: T, result: unknown) => T;
}

/**
 * The call a frame belongs to: its JSON-RPC id (as a number, and as its frames echo it), and what its
 * stream has told so far. `echo` starts as the request's id and becomes the id the stream's first
 * numbered frame carries when that is another (see {@link frameValue}); `numbered` says one was read.
 */
export interface FrameCall {
  readonly id: number;
  echo: string;
  numbered?: boolean;
  readonly ids: StreamIds;
}

/**
 * One frame's value: its JSON-RPC envelope parsed, an error thrown as the agent's, a frame of another
 * call refused, the result mapped.
 *
 * The ids a stream's frames carry: a frame without one, or with `null`, is the call's (it came on the
 * call's own response). The first frame with an id sets the id of all that follow: the request's
 * (compared as text: some servers echo `1` as `"1"`), or any other one — `@reactive-agents/a2a` 0.9.0
 * numbers every frame of every stream `1` — since the response is this call's alone. A later frame
 * with another id than that one is refused: a stream of mixed ids is no one call's.
 */
export function frameValue<T>(data: string, call: FrameCall, mapping: StreamMapping<T>): T {
  const scanned = mapping.scan?.(data, call.echo, call.ids);
  if (scanned !== undefined) {
    call.numbered = true;
    return scanned;
  }
  const envelope = parseJson(data);
  if (envelope === undefined || typeof envelope !== 'object' || envelope === null) {
    throw new A2AError({ kind: 'protocol', message: `malformed frame: not JSON (${data.slice(0, 80)})` });
  }
  if (isError(envelope)) throw rpcError(envelope.error);
  if (!('result' in envelope) && !('jsonrpc' in envelope)) throw notJsonRpc(envelope);
  const echoed = (envelope as { id?: unknown }).id;
  if (echoed !== undefined && echoed !== null) numbered(call, echoed);
  if (!('result' in envelope)) throw new A2AError({ kind: 'protocol', message: 'malformed frame: a JSON-RPC response without a result' });
  const result = (envelope as { result: unknown }).result;
  const fast = mapping.fast?.(result, call.ids);
  if (fast !== undefined) return fast;
  const value = mapping.map(toStreamResponse(result, call.ids));
  return mapping.stamp === undefined ? value : mapping.stamp(value, result);
}

/** A frame's id checked against the stream's: the first one sets it (see {@link frameValue}), any other after it is refused. */
function numbered(call: FrameCall, echoed: unknown): void {
  const said = String(echoed);
  if (said === call.echo) {
    call.numbered = true;
    return;
  }
  if (call.numbered === true) {
    const expected = call.echo === String(call.id) ? String(call.id) : `${call.id}, whose frames said ${call.echo}`;
    throw new A2AError({
      kind: 'protocol',
      message: `a frame of another JSON-RPC call (id ${JSON.stringify(echoed)}, not ${expected})`,
    });
  }
  call.echo = said;
  call.numbered = true;
}

/**
 * A frame that is JSON but no JSON-RPC response at all (no `jsonrpc`, no `result`, no `error`): the
 * server streams something else, bare CloudEvents for one. Said as such, not as a frame of another call.
 */
function notJsonRpc(envelope: object): A2AError {
  const keys = Object.keys(envelope).slice(0, 6).join(', ') || 'none';
  const what = 'specversion' in envelope ? 'a CloudEvent' : `an object with the members ${keys}`;
  return new A2AError({ kind: 'protocol', message: `malformed frame: not a JSON-RPC response but ${what}` });
}
