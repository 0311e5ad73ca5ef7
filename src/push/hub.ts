import { Observable, type Subscriber } from 'rxjs';
import type { AgentEvent } from '../port/types.js';

/**
 * The pushes of a process, handed to the turns that follow their threads: a listener per
 * subscription, by contextId. Nothing is kept for a thread nobody follows: its push is unclaimed.
 */
export class PushHub {
  private readonly listeners = new Map<string, Set<Subscriber<AgentEvent>>>();

  /** The pushes of one thread from now on, while subscribed (hot: none from before). */
  events(contextId: string): Observable<AgentEvent> {
    return new Observable<AgentEvent>((subscriber) => {
      let set = this.listeners.get(contextId);
      if (set === undefined) this.listeners.set(contextId, (set = new Set()));
      set.add(subscriber);
      return () => {
        set.delete(subscriber);
        if (set.size === 0 && this.listeners.get(contextId) === set) this.listeners.delete(contextId);
      };
    });
  }

  /** Hands `event` to every turn following `contextId`; false when none does. */
  deliver(contextId: string, event: AgentEvent): boolean {
    const set = this.listeners.get(contextId);
    if (set === undefined) return false;
    for (const subscriber of [...set]) subscriber.next(event);
    return true;
  }

  /** How many threads are followed. */
  get threads(): number {
    return this.listeners.size;
  }
}
