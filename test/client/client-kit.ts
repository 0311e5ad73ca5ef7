/**
 * The client tests' kit: the identity secret, a logger of spies, a turn's events collected, its end, and the
 * messages an agent received.
 */
import { lastValueFrom, toArray } from 'rxjs';
import { vi } from 'vitest';
import { type FixtureAgent } from '../../fixtures/index.js';
import { createA2A } from '../../src/client/create-a2a.js';
import type { TurnEvent } from '../../src/port/events.js';

/** The client's identity secret. */
export const SECRET = 'correct horse battery staple 0123456789';
/** One method of a logger. */
export type LogFn = (fields: Record<string, unknown>, message: string) => void;
/** A logger whose four methods are spies. */
export const spyLogger = () => ({ debug: vi.fn<LogFn>(), info: vi.fn<LogFn>(), warn: vi.fn<LogFn>(), error: vi.fn<LogFn>() });
/** A turn's events, collected. */
export const run = (turn$: ReturnType<ReturnType<typeof createA2A>['turn']>) => lastValueFrom(turn$.pipe(toArray()));
/** A turn's end event. */
export const endOf = (events: TurnEvent[]) => events.at(-1) as Extract<TurnEvent, { type: 'end' }>;
/** What a sent message's params carry. */
export type Sent = { message?: { contextId?: string; taskId?: string } };
/** The messages an agent received in SendStreamingMessage calls. */
export const sentMessages = (agent: FixtureAgent) =>
  agent.received.filter((r) => r.method === 'SendStreamingMessage').map((r) => (r.params as Sent).message ?? {});
