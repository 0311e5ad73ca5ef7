/**
 * The telemetry option's shapes: the few members of OpenTelemetry's `Tracer`, `Span`, `Meter`,
 * `Counter` and `Histogram` the client calls, so the core has no dependency on `@opentelemetry/api`
 * (a tracer from `trace.getTracer(…)` and a meter from `metrics.getMeter(…)` fit them as they are).
 */

/** Attribute values the client records: strings, numbers, booleans. */
export type TelemetryAttributes = Record<string, string | number | boolean | undefined>;

/** A span's identity, as OpenTelemetry's `SpanContext`. */
export interface TelemetrySpanContext {
  /** 32 lowercase hex digits; all zeros when the span is not real (no SDK registered). */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
  /** W3C trace flags (1: sampled). */
  traceFlags: number;
  /** W3C trace state, sent as `tracestate` when it serializes to anything. */
  traceState?: { serialize(): string };
}

/** The members of OpenTelemetry's `Span` the client calls. */
export interface TelemetrySpan {
  /** The span's identity, for `traceparent`. */
  spanContext(): TelemetrySpanContext;
  /** Sets one attribute. */
  setAttribute(key: string, value: string | number | boolean): unknown;
  /** Records an event on the span (a reconnect, a fallback…). */
  addEvent(name: string, attributes?: TelemetryAttributes): unknown;
  /** `code` as OpenTelemetry's `SpanStatusCode`: 2 is ERROR. */
  setStatus(status: { code: number; message?: string }): unknown;
  /** Ends the span, when the turn ends. */
  end(): void;
}

/** The member of OpenTelemetry's `Tracer` the client calls (the span's parent is the active context). */
export interface TelemetryTracer {
  /** `kind` as OpenTelemetry's `SpanKind`: 2 is CLIENT. */
  startSpan(name: string, options?: { kind?: number; attributes?: TelemetryAttributes }): TelemetrySpan;
}

/** The member of OpenTelemetry's `Counter` the client calls. */
export interface TelemetryCounter {
  /** Adds `value` to the count. */
  add(value: number, attributes?: TelemetryAttributes): void;
}

/** The member of OpenTelemetry's `Histogram` the client calls. */
export interface TelemetryHistogram {
  /** Records one measurement. */
  record(value: number, attributes?: TelemetryAttributes): void;
}

/** The members of OpenTelemetry's `Meter` the client calls (once per client, never per turn). */
export interface TelemetryMeter {
  /** Makes a counter. */
  createCounter(name: string, options?: { description?: string; unit?: string }): TelemetryCounter;
  /** Makes a histogram. */
  createHistogram(name: string, options?: { description?: string; unit?: string }): TelemetryHistogram;
}

/**
 * OpenTelemetry for a client's turns: a span per turn (with `tracer`), the turn metrics (with
 * `meter`), and the span's W3C trace context on every request of the turn. Build it from your own
 * `@opentelemetry/api` (`{ tracer: trace.getTracer('a4h-a2a'), meter: metrics.getMeter('a4h-a2a') }`)
 * or with `otelTelemetry()` from `a4h-a2a/telemetry`. Without it the client does no telemetry work.
 */
export interface A2ATelemetry {
  /** Starts the `a2a.turn` span of each turn. */
  tracer?: TelemetryTracer;
  /** Makes the instruments `a2a.turns`, `a2a.turn.first_event`, `a2a.reconnects` and `a2a.cancels`, once. */
  meter?: TelemetryMeter;
  /**
   * Adds the span's context to a turn's request headers, after the client wrote `traceparent` (and
   * `tracestate`) from the span context itself: e.g. a global propagator's `inject` (baggage, B3).
   * Called once per turn; the headers then go on each of its requests.
   */
  inject?: (span: TelemetrySpan, headers: Record<string, string>) => void;
}
