import type { TurnOutcome } from '../../node/index.js';

/**
 * Which outcomes the CLI counts as a failure (a notice, and exit 1 when the chat ends): the task
 * failed, was rejected or was canceled. Completed, waiting on the user and a resume with nothing to follow are not. A table over
 * every outcome, so a new one does not compile until someone says which it is.
 */
const FAILURE: Readonly<Record<TurnOutcome, boolean>> = {
  completed: false,
  'input-required': false,
  'auth-required': false,
  failed: true,
  rejected: true,
  canceled: true,
  none: false,
  // Not the agent's failure: the message never reached it (the CLI says so and exits 1).
  'not-received': false,
  // Not the agent's failure either: a4h cannot tell yet whether the agent got the message (the CLI says so and exits 1).
  unknown: false,
};

/** Whether the CLI counts this outcome as a failure: `failed`, `rejected` or `canceled`. */
export function isFailure(outcome: TurnOutcome): boolean {
  return FAILURE[outcome];
}
