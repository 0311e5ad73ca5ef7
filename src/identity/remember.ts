import { Observable, type MonoTypeOperatorFunction, type Observer, type Subscriber, type Subscription } from 'rxjs';
import type { ContextAdoptedEvent, TurnEvent } from '../port/events.js';
import type { ThreadRegistry } from './registry.js';

/** How one turn of a thread started: the contextId it sent and the interrupted task it continues. */
export interface ThreadTurnStart {
  contextId: string;
  taskId?: string;
  /** The generation of that task's question (A2A 1.1 draft), given back with it. */
  generation?: number;
  /** The turn looks for the thread's conversation under previous secrets: if it reaches no task, the next message looks again. */
  rotates?: boolean;
}

/** Who hears what a thread adopts (see {@link rememberThread}). */
export interface AdoptionNotes {
  /** The turn sent a message (a resume sent nothing, and adopts nothing the agent answers with). */
  readonly adopts: boolean;
  /** The agent replaced the contextId: heard once per thread; an error it throws is the turn's error. */
  adopted(adopted: string): void;
  /** The turn's own note that the conversation is under a previous identity secret's contextId. */
  carried(adopted: string): void;
}

/**
 * What a thread remembers of one of its turns, as an operator over the turn's events:
 *
 * - **The guard.** When the agent answers a message of the thread's with another contextId than
 *   the one sent, the thread adopts it for its next turns and `context-adopted` is emitted once,
 *   before the event that showed it; `notes.adopted` hears of it once per thread (an error it throws
 *   is the turn's error). A turn that sent nothing (a resume: `notes.adopts` false) adopts nothing.
 * - **A rotated secret.** A `context-adopted` note of the turn's own (`reason: 'previous-secret'`: the
 *   message went to the thread's conversation under a previous identity secret) is adopted as it
 *   passes: the thread uses that contextId from now on, and `notes.carried` hears of it.
 * - **Follow-ups.** A turn that ends input-required or auth-required leaves its task for the
 *   thread's next message; any other end clears it. A turn that never reached the agent's task
 *   (unsubscribed or failed before it) gives the interrupted task it took back to the thread, and
 *   the look under previous secrets (`rotates`) too: the next message looks again.
 */
export function rememberThread(
  threads: ThreadRegistry,
  key: string,
  sent: ThreadTurnStart,
  notes: AdoptionNotes,
): MonoTypeOperatorFunction<TurnEvent> {
  // One hop (this is every event's path): the guard, then the follow-up bookkeeping; on teardown, the taken task given back.
  return (events) =>
    new Observable<TurnEvent>((subscriber) => {
      const remembered = new Remembered(subscriber, threads, key, sent, notes);
      remembered.upstream = events.subscribe(remembered);
      return remembered;
    });
}

/** {@link rememberThread}'s observer and teardown in one object: methods, not six closures per turn. */
class Remembered implements Observer<TurnEvent> {
  upstream!: Subscription;
  private adopted: string | undefined;
  private reachedTask = false;
  private ended = false;

  constructor(
    private readonly subscriber: Subscriber<TurnEvent>,
    private readonly threads: ThreadRegistry,
    private readonly key: string,
    private readonly sent: ThreadTurnStart,
    private readonly notes: AdoptionNotes,
  ) {}

  next(event: TurnEvent): void {
    const { subscriber, threads, key } = this;
    if (event.type === 'context-adopted' && event.reason === 'previous-secret') {
      this.adopted = event.adopted;
      threads.update(key, { adoptedContextId: event.adopted });
      this.notes.carried(event.adopted);
      return subscriber.next(event);
    }
    const seen = event.type === 'task' || event.type === 'end' ? event.contextId : undefined;
    if (this.notes.adopts && seen !== undefined && seen !== this.sent.contextId && seen !== this.adopted) {
      let adoption: ContextAdoptedEvent;
      try {
        adoption = this.adopt(seen);
      } catch (error) {
        return subscriber.error(error);
      }
      subscriber.next(adoption);
    }
    if (event.type === 'task' || event.type === 'task-gone') this.reachedTask = true;
    if (event.type === 'end') {
      this.ended = true;
      const interrupted = event.outcome === 'input-required' || event.outcome === 'auth-required';
      threads.update(key, {
        interruptedTaskId: interrupted ? event.taskId : undefined,
        interruptedGeneration: interrupted ? event.generation : undefined,
      });
    }
    subscriber.next(event);
  }

  error(error: unknown): void {
    this.subscriber.error(error);
  }

  complete(): void {
    this.subscriber.complete();
  }

  /** The turn's teardown: a turn that never reached the agent's task gives back what it took. */
  unsubscribe(): void {
    this.upstream.unsubscribe();
    if (this.ended || this.reachedTask) return;
    const { threads, key, sent } = this;
    if (sent.taskId !== undefined) threads.update(key, { interruptedTaskId: sent.taskId, interruptedGeneration: sent.generation });
    if (sent.rotates === true && this.adopted === undefined) threads.update(key, { rotationChecked: undefined });
  }

  private adopt(seen: string): ContextAdoptedEvent {
    const { threads, key } = this;
    this.adopted = seen;
    threads.update(key, { adoptedContextId: seen });
    if (!threads.get(key)?.adoptionLogged) {
      threads.update(key, { adoptionLogged: true });
      this.notes.adopted(seen);
    }
    return { type: 'context-adopted', sent: this.sent.contextId, adopted: seen };
  }
}
