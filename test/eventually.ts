/**
 * The tests' one wait for an effect that lands on its own time (a CancelTask after the turn, a
 * socket closing, a line in an agent's log): poll a check instead of sleeping a guessed while.
 */

/** How often {@link eventually} looks again: often enough to add little to a test, rarely enough to cost nothing. */
const POLL_MS = 20;

/**
 * Polls `check` every 20 ms until it holds. Rejects once `timeoutMs` has passed without it, naming
 * the check, so a wait that never ends fails where it waited; a caller that asserts the state itself
 * afterwards (with a better message) catches the rejection.
 */
export async function eventually(check: () => boolean, timeoutMs = 3_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`not met within ${timeoutMs} ms: ${String(check)}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
