import type { Observable } from 'rxjs';
import type { AgentEvent, PushTarget } from './types.js';

export type { PushTarget } from './types.js';

/**
 * A turn's view of a push receiver (see `createPushReceiver`): the target its messages ask for, and the
 * pushes that arrive for its thread, already checked (credential, thread, body, duplicates).
 */
export interface PushSource {
  /** The target for a thread's tasks; one value, then complete. */
  target(contextId: string): Observable<PushTarget>;
  /** The checked pushes of one thread from subscription on, as agent events (hot: nothing from before). */
  events(contextId: string): Observable<AgentEvent>;
}

/** When a turn has its task's updates pushed rather than holding a stream or polling. */
export type PushWhen =
  /** Every turn of the thread asks for pushes, whatever the card says (an agent may push without saying so). */
  | 'always'
  /** Turns to agents whose card offers push notifications (`capabilities.pushNotifications`). */
  | 'offered'
  /** A turn that has run this long with its task unsettled asks for pushes on the task and lets its stream go. */
  | { afterMs: number };

/** A turn's push option: the receiver, when to use it, and how often the turn checks the task itself meanwhile. */
export interface PushDelivery {
  /** The receiver. */
  source: PushSource;
  /** When; `'offered'` by default. */
  when?: PushWhen;
  /**
   * A `GetTask` about this often while the turn waits for pushes (ms, each 80–120% of it; 60 s by default): a push lost on the
   * way (a receiver restarted, a sender that does not retry) is healed by it, and a task that moved
   * without a push told of it sends the turn back to the ladder (resubscribe, then poll).
   */
  checkEveryMs?: number;
}
