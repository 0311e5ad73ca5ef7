import type { TelemetrySpanContext } from './types.js';

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;

/**
 * The W3C `traceparent` of a span context (`00-<trace id>-<span id>-<flags>`), or undefined for an
 * invalid one (the all-zero ids of a span no SDK records).
 */
export function traceparentOf(context: TelemetrySpanContext): string | undefined {
  const { traceId, spanId, traceFlags } = context;
  if (!TRACE_ID.test(traceId) || !SPAN_ID.test(spanId) || /^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}
