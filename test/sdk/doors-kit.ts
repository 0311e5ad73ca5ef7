import { Subject, takeUntil, type Observable } from 'rxjs';
import type { FaultProxy } from '../../fixtures/fault-proxy.js';
import type { FixtureAgent } from '../../fixtures/index.js';
import type { TurnEvent } from '../../src/port/events.js';

/** The identity secret of the attack tests' clients (the replicas of one gateway share it). */
export const SECRET = 'guarded doors: a secret of at least 16 bytes';

/** A message as the agent received it (v1.0 or v0.3 params). */
export interface ReceivedMessage {
  messageId?: string;
  contextId?: string;
  taskId?: string;
}

/** The user messages the agent received, in order (streaming and blocking sends, both generations). */
export function sentTo(agent: FixtureAgent): ReceivedMessage[] {
  return agent.received
    .filter((r) => /^(SendStreamingMessage|SendMessage|message\/stream|message\/send)$/.test(r.method))
    .map((r) => (r.params as { message?: ReceivedMessage }).message ?? {});
}

/** The CancelTasks the agent received for `taskId`. */
export function cancelsOf(agent: FixtureAgent, taskId: string): number {
  return agent.received.filter((r) => /^(CancelTask|tasks\/cancel)$/.test(r.method) && JSON.stringify(r.params).includes(taskId)).length;
}

/** A turn run to its end: every event it emitted, and its error (undefined when it ended with `end`). */
export function settle(turn$: Observable<TurnEvent>): Promise<{ events: TurnEvent[]; error: unknown }> {
  const events: TurnEvent[] = [];
  return new Promise((resolve) =>
    turn$.subscribe({
      next: (event) => events.push(event),
      error: (error: unknown) => resolve({ events, error }),
      complete: () => resolve({ events, error: undefined }),
    }),
  );
}

/** A turn running in the background: its events so far, its task id once named, its end; `leave()` unsubscribes. */
export interface Running {
  events: TurnEvent[];
  named: Promise<string>;
  done: Promise<{ events: TurnEvent[]; error: unknown }>;
  leave(): void;
}

/** Starts `turn$` in the background (see {@link Running}). */
export function running(turn$: Observable<TurnEvent>): Running {
  const stop = new Subject<void>();
  const events: TurnEvent[] = [];
  let name: (id: string) => void = () => undefined;
  const named = new Promise<string>((resolve) => (name = resolve));
  const done = new Promise<{ events: TurnEvent[]; error: unknown }>((resolve) =>
    turn$.pipe(takeUntil(stop)).subscribe({
      next: (event) => {
        events.push(event);
        if (event.type === 'task') name(event.taskId);
      },
      error: (error: unknown) => resolve({ events, error }),
      complete: () => resolve({ events, error: undefined }),
    }),
  );
  return { events, named, done, leave: () => stop.next() };
}

/** A ListTasks answer (v1.0 JSON-RPC) as the fault proxy hands it to an edit. */
export interface Listed {
  result?: { tasks: Record<string, unknown>[]; nextPageToken?: string };
}

/** Plans `edit` on the proxy's next ListTasks answer, or on the next `times` of them (Infinity: every one). */
export function editLists(proxy: FaultProxy, edit: (listed: Listed) => void, times?: number): void {
  proxy.plan({
    on: 'list',
    ...(times === undefined ? {} : { times }),
    fault: {
      type: 'edit-json',
      edit: (json) => {
        edit(json as Listed);
        return json;
      },
    },
  });
}

/** One task per page: a listing of more than one keeps its first, with the SDK's own cursor as the next page's token. */
export function onePerPage(listed: Listed): void {
  const result = listed.result!;
  if (result.tasks.length > 1) {
    const kept = result.tasks[0] as { id: string; status: { timestamp?: string } };
    result.tasks = [kept];
    result.nextPageToken = Buffer.from(`${kept.status.timestamp ?? ''}|${kept.id}`).toString('base64');
  }
}
