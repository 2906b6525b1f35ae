import type { ExportTraceServiceRequest } from './otlp-json.ts';
import { SEMCONV_SCHEMA_URL } from './semconv.ts';
import type { SessionTrace } from './session-trace.ts';

/** Spans one request carries: a collector takes a few megabytes a request, and a file line stays readable. */
export const SPANS_PER_REQUEST = 512;

/**
 * A trace as OTLP `ExportTraceServiceRequest`s of at most `perRequest`
 * spans each, every one with the resource and scope: the file exporter's
 * format writes one a line, and OTLP/HTTP posts one a request.
 */
export function traceRequests(trace: SessionTrace, perRequest = SPANS_PER_REQUEST): ExportTraceServiceRequest[] {
  const out: ExportTraceServiceRequest[] = [];
  for (let i = 0; i < trace.spans.length; i += perRequest) {
    const spans = trace.spans.slice(i, i + perRequest);
    out.push({
      resourceSpans: [{
        resource: { attributes: trace.resource },
        scopeSpans: [{ scope: trace.scope, spans, schemaUrl: SEMCONV_SCHEMA_URL }],
        schemaUrl: SEMCONV_SCHEMA_URL,
      }],
    });
  }
  return out;
}

/** The file exporter's text: one request a line. */
export function traceJsonLines(trace: SessionTrace, perRequest = SPANS_PER_REQUEST): string {
  return traceRequests(trace, perRequest).map((r) => JSON.stringify(r)).join('\n') + '\n';
}
