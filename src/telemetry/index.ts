/**
 * `a4h-a2a/telemetry`: the `telemetry` option from `@opentelemetry/api` (an optional peer dependency:
 * only this entry imports it).
 *
 * @packageDocumentation
 */
import { context, metrics, propagation, trace, type MeterProvider, type Span, type TracerProvider } from '@opentelemetry/api';
import type { A2ATelemetry } from './types.js';

export type { A2ATelemetry } from './types.js';

/** Where {@link otelTelemetry} takes its tracer and meter from. */
export interface OtelTelemetryOptions {
  /** The instrumentation scope's name. Default `a4h-a2a`. */
  name?: string;
  /** The instrumentation scope's version. */
  version?: string;
  /** Default: the global tracer provider (`trace`). */
  tracerProvider?: TracerProvider;
  /** Default: the global meter provider (`metrics`). */
  meterProvider?: MeterProvider;
  /** Also inject with the global propagator (tracestate, baggage, B3, …) besides the client's own `traceparent`. Default true. */
  propagate?: boolean;
}

/**
 * The `telemetry` option of `createA2A` on OpenTelemetry's API: a tracer and a meter from the given
 * providers (by default the global ones an SDK registered; without one, the API's no-ops, and no
 * `traceparent` goes), and the global propagator's `inject` on each turn's headers.
 */
export function otelTelemetry(options: OtelTelemetryOptions = {}): A2ATelemetry {
  const name = options.name ?? 'a4h-a2a';
  const telemetry: A2ATelemetry = {
    tracer: (options.tracerProvider ?? trace).getTracer(name, options.version),
    meter: (options.meterProvider ?? metrics).getMeter(name, options.version),
  };
  if (options.propagate !== false) {
    // The option's span is one the tracer above started: an OpenTelemetry Span.
    telemetry.inject = (span, headers) => propagation.inject(trace.setSpan(context.active(), span as Span), headers);
  }
  return telemetry;
}
