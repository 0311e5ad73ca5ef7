import { map, type OperatorFunction } from 'rxjs';
import { TestScheduler, type RunHelpers } from 'rxjs/testing';
import { expect } from 'vitest';
import type { LadderOptions } from '../src/turn/turn.js';
import type { TurnEvent } from '../src/port/events.js';

/** Runs `body` on virtual time, comparing frames with vitest's deep equality (so matchers work for errors). */
export function marbles(body: (helpers: RunHelpers) => void): void {
  new TestScheduler((actual, expected) => expect(actual).toEqual(expected)).run(body);
}

/**
 * Small bounds so diagrams stay short. With `random: () => 0` every backoff is its base delay:
 * reconnect 10, 20, 40…; poll 10 each.
 */
export const options: LadderOptions = {
  random: () => 0,
  policy: {
    cardTimeoutMs: 100,
    sendTimeoutMs: 200,
    firstEventTimeoutMs: 50,
    idleTimeoutMs: 30,
    authWaitMs: 300,
    turnTimeoutMs: 1_000,
    cancelTimeoutMs: 20,
    reconnect: { maxAttempts: 2, maxElapsedMs: 500, initialDelayMs: 10, factor: 2, maxDelayMs: 100, jitter: 0.5 },
    poll: { initialDelayMs: 10, factor: 1, maxDelayMs: 10, jitter: 0, requestTimeoutMs: 20, maxErrors: 1, staleAfterMs: 100 },
  },
};

/** One short line per turn event, so expected diagrams can name events with letters. */
export function label(event: TurnEvent): string {
  switch (event.type) {
    case 'start':
      return 'start';
    case 'task':
      return `task ${event.taskId}`;
    case 'status':
      return event.text === undefined ? `status ${event.state}` : `status ${event.state} "${event.text}"`;
    case 'text':
      return `${event.replace ? 'replace' : 'text'} "${event.text}"`;
    case 'auth-required':
      return `auth-required "${event.text ?? ''}"`;
    case 'reconnecting':
      return `reconnecting #${event.attempt} in ${event.delayMs}`;
    case 'polling':
      return `polling (${event.reason})`;
    case 'fallback':
      return `fallback to send (${event.cause.kind})`;
    case 'task-gone':
      return `task ${event.taskId} gone (${event.cause.kind})`;
    case 'context-adopted':
      return `context ${event.sent} -> ${event.adopted}`;
    case 'end':
      return `end ${event.outcome} "${event.text}"`;
  }
}

export const labels: OperatorFunction<TurnEvent, string> = map(label);

/** Matches an A2AError by its kind (and any other fields given). */
export function a2aError(fields: Record<string, unknown>): unknown {
  return expect.objectContaining(fields);
}
