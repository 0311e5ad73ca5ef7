import type { Subscription } from 'rxjs';

/**
 * The CancelTasks that abandoned turns started and that are still in flight, so a process can let
 * them reach the agents before it exits. Hand `track` to the ladder as its `onCancel`.
 *
 * The client's bookkeeping, not the ladder's: it turns the ladder's subscriptions into one promise for
 * `close()`. A program that runs `runTurn` itself does the same with its own.
 */
export class CancelsInFlight {
  private readonly pending = new Set<Promise<void>>();

  /** Counts one CancelTask (its subscription) until it ends: the ladder's `onCancel`. */
  readonly track = (cancel: Subscription): void => {
    const done = new Promise<void>((resolve) => cancel.add(resolve));
    this.pending.add(done);
    void done.then(() => this.pending.delete(done));
  };

  /** Resolves when every CancelTask in flight (and any it starts) was answered, failed or timed out (each is bounded). */
  async settled(): Promise<void> {
    // A turn read on in the background starts its CancelTask when it ends: wait for that one too.
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
