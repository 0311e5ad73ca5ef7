/*
 * Who a call is made for: the person (`handle`) and conversation (`thread`) of the turn, history
 * page or cancel that made it. It travels with the call's abort signal, which every call owns and
 * hands to the fetch (and to gRPC's interceptors): one entry per call in flight, gone with its
 * signal, so a client serving many threads keeps no object per thread.
 */
import type { Caller } from '../../port/port.js';

export type { Caller };

const callers = new WeakMap<AbortSignal, Caller>();

/** Marks `signal`'s call as made for `caller` (nothing when there is none). */
export function callFor(signal: AbortSignal, caller: Caller | undefined): void {
  if (caller !== undefined) callers.set(signal, caller);
}

/** The caller of the call whose abort signal is `signal`, when it has one. */
export function callerOf(signal: AbortSignal | null | undefined): Caller | undefined {
  return signal ? callers.get(signal) : undefined;
}
