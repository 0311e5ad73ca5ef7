/**
 * What a browser is told of a failed turn by default: a sentence by the error's kind, in the
 * transport's own words. The library's message names what failed and where (the agent's URL, its
 * host and port, a card URL, the agent's own words): behind a server route whose agent is internal,
 * that is not the browser's to read. The whole error stays on the server: `onError` hears it.
 */
import { isA2AError, type A2AErrorKind } from '../errors.js';

/** The sentence of each kind: what failed, never where. */
const SENTENCES: Readonly<Record<A2AErrorKind, string>> = {
  card: 'The agent is not available.',
  network: 'The agent could not be reached.',
  'stream-closed': "The agent's reply ended early.",
  timeout: 'The agent did not answer in time.',
  http: 'The agent answered with an error.',
  protocol: "The agent's answer could not be read.",
  unsupported: 'The agent does not support this.',
  'task-not-found': 'No such task on this conversation.',
  'foreign-task': 'No such task on this conversation.',
  aborted: 'The reply was interrupted.',
  config: 'The chat is misconfigured.',
  input: 'The message was refused.',
  auth: 'The agent refused our credentials.',
  conflict: 'The question was answered already.',
  'queue-full': 'The agent is busy; try again shortly.',
};

/** The `errorText` of a failed turn's `error` chunk by default: a sentence by its kind (any other error: that the turn failed); no URL, no agent text. */
export function publicErrorText(error: unknown): string {
  return (isA2AError(error) ? SENTENCES[error.kind] : undefined) ?? 'The reply failed.';
}
