/*
 * What travels with a call's abort signal, which every call owns and hands to the fetch (and to
 * gRPC's interceptors): whom the call is for (the person, `handle`, and conversation, `thread`, of the
 * turn, history page or cancel that made it), whether it repeats a refused call, and how to renew
 * the credentials a binding's own refusal (gRPC UNAUTHENTICATED) turned down. One entry per call in
 * flight, gone with its signal, so a client serving many threads keeps no object per thread.
 */
import type { Caller } from '../../../port/port.js';

export type { Caller };

/** What a call's credentials are made for: its caller, and whether it repeats a call refused for them. */
export interface CallCredentials {
  caller?: Caller;
  retry?: boolean;
}

const calls = new WeakMap<AbortSignal, CallCredentials>();
const renewals = new WeakMap<AbortSignal, () => boolean>();

/** Marks `signal`'s call as made for `caller` (and as a repeat of a refused call, with `retry`). */
export function callFor(signal: AbortSignal, caller: Caller | undefined, retry = false): void {
  if (caller === undefined && !retry) return;
  calls.set(signal, { ...(caller && { caller }), ...(retry && { retry }) });
}

/** The caller of the call whose abort signal is `signal`, when it has one. */
export function callerOf(signal: AbortSignal | null | undefined): Caller | undefined {
  return signal ? calls.get(signal)?.caller : undefined;
}

/** What `signal`'s call's credentials are made for (nothing known: an empty object). */
export function callOf(signal: AbortSignal | null | undefined): CallCredentials {
  return (signal && calls.get(signal)) || {};
}

/**
 * Notes how to renew the credentials `signal`'s call carried, should the binding refuse them by
 * itself (gRPC's UNAUTHENTICATED; HTTP's 401 is made again by the fetch): `renew` drops what was
 * refused and says whether fresh credentials can be made.
 */
export function noteRenewal(signal: AbortSignal | undefined, renew: () => boolean): void {
  if (signal !== undefined) renewals.set(signal, renew);
}

/** The credentials of `signal`'s call were refused: renewed when they can be (see {@link noteRenewal}); true when a repeat may succeed. */
export function renewAfterRefusal(signal: AbortSignal): boolean {
  const renew = renewals.get(signal);
  renewals.delete(signal);
  return renew?.() ?? false;
}
