import type { TurnView } from '../render/view.js';

/** The sentence a page shows for an answer refused because its question was answered already. */
export const ANSWERED_ALREADY = 'This question was answered already.';

/**
 * Whether `view` is an answer refused because its question was answered already: a `conflict` error
 * (A2A 1.1's generation mismatch, from the agent, or the client's own check that the task moved on
 * or finished before anything was sent). Nothing of it reached the task.
 */
export function answeredAlready(view: TurnView | undefined): boolean {
  return view?.phase === 'error' && view.error?.kind === 'conflict';
}
