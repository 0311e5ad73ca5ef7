import { Observable, tap } from 'rxjs';
import { isA2AError } from '../errors.js';
import type { TurnEvent, TurnOutcome, Usage } from '../port/events.js';
import type { CardSummary } from '../port/card.js';
import { ForwardingPort } from '../port/forwarding.js';
import type { A2APort } from '../port/port.js';
import type { Task } from '../port/types.js';
import { traceparentOf } from './traceparent.js';
import type { A2ATelemetry, TelemetryAttributes, TelemetryCounter, TelemetryHistogram, TelemetrySpan } from './types.js';

/** How a traced turn ended: the agent's outcome, an error (the turn's error channel), or left by its subscriber. */
export type TracedOutcome = TurnOutcome | 'error' | 'abandoned';

/** OpenTelemetry's SpanKind.CLIENT and SpanStatusCode.ERROR. */
const CLIENT = 2;
const ERROR = 2;

/** The agent URL as an attribute: origin and path, never its user info, query or fragment. */
export function agentAttribute(agent: string): string {
  try {
    const url = new URL(agent);
    return url.origin + url.pathname;
  } catch {
    return 'invalid-url';
  }
}

/**
 * Whether each event type comes from the agent (true) or is the client's own note (false): the
 * agent's first event stops the first-event clock. A table over every type of the union, so a new
 * event type does not compile until someone says whose it is.
 */
const FROM_AGENT: Readonly<Record<TurnEvent['type'], boolean>> = {
  start: false,
  queued: false,
  task: true,
  request: true,
  status: true,
  text: true,
  attachment: true,
  activity: true,
  'auth-required': true,
  surface: true,
  'surface-refused': true,
  usage: true,
  reconnecting: false,
  polling: false,
  fallback: false,
  'task-gone': false,
  'context-refused': false,
  reconcile: false,
  'context-adopted': false,
  push: false,
  end: true,
};

/**
 * A client's telemetry: its instruments, made once, and {@link TurnTelemetry.turn}, which traces one
 * turn. `createA2A` makes one only when the `telemetry` option is given.
 */
export class TurnTelemetry {
  private readonly turns?: TelemetryCounter;
  private readonly firstEvent?: TelemetryHistogram;
  private readonly reconnects?: TelemetryCounter;
  private readonly cancels?: TelemetryCounter;

  constructor(private readonly option: A2ATelemetry) {
    const { meter } = option;
    if (meter === undefined) return;
    this.turns = meter.createCounter('a2a.turns', { description: 'Turns, by outcome', unit: '{turn}' });
    this.firstEvent = meter.createHistogram('a2a.turn.first_event', {
      description: "Time from a turn's start to the agent's first event",
      unit: 'ms',
    });
    this.reconnects = meter.createCounter('a2a.reconnects', { description: 'Resubscribes after a broken stream', unit: '{reconnect}' });
    this.cancels = meter.createCounter('a2a.cancels', { description: 'CancelTasks sent for abandoned turns', unit: '{cancel}' });
  }

  /**
   * One turn, traced: on subscribe, its span starts (a child of the active context) and `run` gets
   * the headers for each of the turn's requests (`traceparent`, …) and a wrapper for the turn's port
   * (the card's protocol version and transport, the CancelTask). One operator: a switch per event.
   */
  turn(
    agent: string,
    handle: string,
    run: (headers: Readonly<Record<string, string>> | undefined, port: (port: A2APort) => A2APort) => Observable<TurnEvent>,
  ): Observable<TurnEvent> {
    return new Observable<TurnEvent>((subscriber) => {
      const started = performance.now();
      const attributes: TelemetryAttributes = { 'a2a.agent': agentAttribute(agent) };
      const span = this.option.tracer?.startSpan('a2a.turn', { kind: CLIENT, attributes: { ...attributes, 'a2a.handle': handle } });
      const headers = span === undefined ? undefined : this.headersOf(span);
      let ended = false;
      let outcome: TracedOutcome = 'abandoned';
      /** A completed end whose reply the turn did not get: why (`a2a.reply_missing`). */
      let replyMissing: string | undefined;
      let errorType: string | undefined;
      /** The usage the agent reported so far (the latest total): on the span whatever the turn's end. */
      let usage: Usage | undefined;
      let waiting = true;
      const note = (name: string, detail: TelemetryAttributes): void => {
        if (!ended) span?.addEvent(name, detail);
      };
      const port = (inner: A2APort): A2APort =>
        new TracedPort(inner, {
          onCard: (card) => {
            if (ended || span === undefined) return;
            span.setAttribute('a2a.protocol.version', card.protocolVersion);
            span.setAttribute('a2a.transport', card.transport);
          },
          onCancel: (taskId) => {
            this.cancels?.add(1, attributes);
            note('a2a.cancel', { 'a2a.task.id': taskId });
          },
        });
      const turn = run(headers, port).subscribe({
        next: (event) => {
          if (waiting && FROM_AGENT[event.type]) {
            waiting = false;
            this.firstEvent?.record(performance.now() - started, attributes);
          }
          if (event.type === 'task' && !ended) span?.setAttribute('a2a.task.id', event.taskId);
          else if (event.type === 'end') {
            outcome = event.outcome;
            replyMissing = event.replyMissing?.reason;
            usage = event.usage ?? usage;
          } else if (event.type === 'usage') usage = event.total;
          else if (event.type === 'reconnecting') this.reconnects?.add(1, attributes);
          const noted = spanEventOf(event);
          if (noted !== undefined) note(noted[0], noted[1]);
          subscriber.next(event);
        },
        error: (error: unknown) => {
          outcome = 'error';
          errorType = isA2AError(error) ? error.kind : 'unknown';
          subscriber.error(error);
        },
        complete: () => subscriber.complete(),
      });
      return () => {
        // The turn's teardown first: a CancelTask it sends is an event of the span.
        turn.unsubscribe();
        ended = true;
        const missing = replyMissing === undefined ? {} : { 'a2a.reply_missing': replyMissing };
        this.turns?.add(1, {
          ...attributes,
          'a2a.outcome': outcome,
          ...missing,
          ...(errorType === undefined ? {} : { 'error.type': errorType }),
        });
        if (span === undefined) return;
        span.setAttribute('a2a.outcome', outcome);
        if (replyMissing !== undefined) span.setAttribute('a2a.reply_missing', replyMissing);
        for (const [name, value] of usageAttributes(usage)) span.setAttribute(name, value);
        if (errorType !== undefined) {
          span.setAttribute('error.type', errorType);
          span.setStatus({ code: ERROR, message: errorType });
        }
        span.end();
      };
    });
  }

  /** The span's W3C trace context as request headers (then the option's `inject`), or undefined for none. */
  private headersOf(span: TelemetrySpan): Readonly<Record<string, string>> | undefined {
    const headers: Record<string, string> = {};
    const context = span.spanContext();
    const traceparent = traceparentOf(context);
    if (traceparent !== undefined) {
      headers['traceparent'] = traceparent;
      const state = context.traceState?.serialize();
      if (state) headers['tracestate'] = state;
    }
    this.option.inject?.(span, headers);
    return Object.keys(headers).length === 0 ? undefined : headers;
  }
}

/** A turn's port as telemetry sees it: the card it resolved (for the span) and each CancelTask (counted). */
class TracedPort extends ForwardingPort {
  constructor(
    inner: A2APort,
    private readonly seen: { onCard(card: CardSummary): void; onCancel(taskId: string): void },
  ) {
    super(inner);
  }

  override card(): Observable<CardSummary> {
    return this.inner.card().pipe(tap((card) => this.seen.onCard(card)));
  }
  override cancel(taskId: string): Observable<Task> {
    this.seen.onCancel(taskId);
    return this.inner.cancel(taskId);
  }
}

/** The span event a ladder note becomes (its name and attributes), or undefined for any other turn event. */
function spanEventOf(event: TurnEvent): [string, TelemetryAttributes] | undefined {
  switch (event.type) {
    case 'reconnecting':
      return ['a2a.reconnecting', { 'a2a.attempt': event.attempt, 'a2a.delay_ms': event.delayMs, 'error.type': event.cause.kind }];
    case 'polling':
      return ['a2a.polling', event.cause ? { 'a2a.reason': event.reason, 'error.type': event.cause.kind } : { 'a2a.reason': event.reason }];
    case 'fallback':
      return ['a2a.fallback', { 'a2a.from': event.from, 'a2a.to': event.to, 'error.type': event.cause.kind }];
    case 'task-gone':
      return ['a2a.task_gone', { 'a2a.task.id': event.taskId, 'error.type': event.cause.kind }];
    case 'context-refused':
      return ['a2a.context_refused', { 'error.type': event.cause.kind }];
    case 'reconcile':
      return ['a2a.reconcile', { 'a2a.reason': event.reason }];
    case 'push':
      return ['a2a.push', event.cause ? { 'a2a.step': event.step, 'error.type': event.cause.kind } : { 'a2a.step': event.step }];
    default:
      return undefined;
  }
}

/**
 * OpenTelemetry's GenAI attributes of the usage the agent reported (`gen_ai.usage.input_tokens`,
 * `gen_ai.usage.output_tokens`), each only when the agent gave it. The semantic conventions name no
 * total and no cost: those stay off the span.
 */
function usageAttributes(usage: Usage | undefined): Array<[string, number]> {
  const attributes: Array<[string, number]> = [];
  if (usage?.inputTokens !== undefined) attributes.push(['gen_ai.usage.input_tokens', usage.inputTokens]);
  if (usage?.outputTokens !== undefined) attributes.push(['gen_ai.usage.output_tokens', usage.outputTokens]);
  return attributes;
}
