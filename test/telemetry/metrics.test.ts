/** Telemetry: the turn metrics and the first-event clock (the kit: telemetry-kit.ts). */
import { lastValueFrom, Observable, toArray } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { A2AError } from '../../src/errors.js';
import type { TurnEvent } from '../../src/port/events.js';
import { TurnTelemetry } from '../../src/telemetry/turn.js';
import { proxy, metricExporter, turn, points, useTelemetryRig } from './telemetry-kit.js';

useTelemetryRig();

describe('the metrics', () => {
  it('a2a.turns by outcome and a2a.turn.first_event (ms) per agent', async () => {
    await turn('slow');
    await turn('fail');
    await turn('status');
    const turns = await points('a2a.turns');
    const agentUrl = proxy.url('/');
    expect(turns).toEqual(
      expect.arrayContaining([
        { attributes: { 'a2a.agent': agentUrl, 'a2a.outcome': 'completed' }, value: 2 },
        { attributes: { 'a2a.agent': agentUrl, 'a2a.outcome': 'failed' }, value: 1 },
      ]),
    );
    expect(turns).toHaveLength(2);
    const [first] = await points('a2a.turn.first_event');
    expect(first?.attributes).toEqual({ 'a2a.agent': agentUrl });
    const histogram = first?.value as { count: number; min: number; max: number };
    expect(histogram.count).toBe(3);
    expect(histogram.min).toBeGreaterThan(0);
    expect(histogram.max).toBeLessThan(5_000);
    const [descriptor] = metricExporter
      .getMetrics()
      .at(-1)!
      .scopeMetrics.flatMap((s) => s.metrics)
      .filter((m) => m.descriptor.name === 'a2a.turn.first_event')
      .map((m) => m.descriptor);
    expect(descriptor?.unit).toBe('ms');
  });
});

describe('the first-event clock', () => {
  const cause = new A2AError({ kind: 'network', message: 'cut' });
  /** One event of each type, and whether it is the agent's (it stops the clock) or the client's own note. */
  const samples: Record<TurnEvent['type'], [event: TurnEvent, fromAgent: boolean]> = {
    start: [{ type: 'start' }, false],
    queued: [{ type: 'queued', place: 1 }, false],
    task: [{ type: 'task', taskId: 'task-1' }, true],
    request: [{ type: 'request', text: 'hi' }, true],
    status: [{ type: 'status', state: 'working' }, true],
    text: [{ type: 'text', text: 'hi', replace: false }, true],
    attachment: [{ type: 'attachment', attachment: { kind: 'data', data: {} } }, true],
    activity: [{ type: 'activity', kind: 'function_call', data: {} }, true],
    'auth-required': [{ type: 'auth-required' }, true],
    surface: [{ type: 'surface', surfaceId: 's1', messages: [] }, true],
    'surface-refused': [{ type: 'surface-refused', reason: 'unsafe-url', message: 'refused' }, true],
    usage: [{ type: 'usage', scope: 'message', usage: { inputTokens: 1 }, total: { inputTokens: 1 } }, true],
    reconnecting: [{ type: 'reconnecting', attempt: 1, delayMs: 0, cause }, false],
    polling: [{ type: 'polling', reason: 'resubscribe-failed', cause }, false],
    fallback: [{ type: 'fallback', from: 'stream', to: 'send', cause }, false],
    'task-gone': [{ type: 'task-gone', taskId: 'task-1', cause }, false],
    'context-refused': [{ type: 'context-refused', contextId: 'c-1', cause }, false],
    reconcile: [{ type: 'reconcile', taskId: 'task-1', reason: 'resubscribed-without-snapshot' }, false],
    'context-adopted': [{ type: 'context-adopted', sent: 'c-1', adopted: 'c-2' }, false],
    push: [{ type: 'push', step: 'handed-off', taskId: 'task-1' }, false],
    end: [{ type: 'end', outcome: 'completed', text: '' }, true],
  };

  const cases = Object.values(samples).map(([event, fromAgent]) => ({
    type: event.type,
    event,
    stopsAt: fromAgent ? 10 : 50,
  }));

  it.each(cases)('$type at 10 ms, then the end at 50 ms: the clock stops at $stopsAt ms', async ({ event: sample, stopsAt }) => {
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const recorded: number[] = [];
    const counter = { add: () => {} };
    const telemetry = new TurnTelemetry({
      meter: { createCounter: () => counter, createHistogram: () => ({ record: (ms) => recorded.push(ms) }) },
    });
    const events = new Observable<TurnEvent>((subscriber) => {
      now = 10;
      subscriber.next(sample);
      now = 50;
      subscriber.next({ type: 'end', outcome: 'completed', text: '' });
      subscriber.complete();
    });
    try {
      await lastValueFrom(telemetry.turn('http://127.0.0.1:1/', 'h', () => events).pipe(toArray()));
    } finally {
      vi.restoreAllMocks();
    }
    expect(recorded).toEqual([stopsAt]);
  });
});
