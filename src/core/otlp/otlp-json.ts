/**
 * The OTLP/JSON shapes a trace export writes (opentelemetry-proto's
 * trace.proto and common.proto in their JSON mapping): field names in
 * lowerCamelCase, trace and span ids as hex, 64-bit integers as decimal
 * strings, enums as numbers, and fields at their default left out.
 */

export type AnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string }
  | { doubleValue: number }
  | { arrayValue: { values: AnyValue[] } };

export interface KeyValue {
  key: string;
  value: AnyValue;
}

/** opentelemetry.proto.trace.v1.Span.SpanKind */
export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;
/** opentelemetry.proto.trace.v1.Status.StatusCode */
export const STATUS_CODE = { unset: 0, ok: 1, error: 2 } as const;

export interface SpanEvent {
  timeUnixNano: string;
  name: string;
  attributes?: KeyValue[];
}

export interface SpanLink {
  traceId: string;
  spanId: string;
  attributes?: KeyValue[];
}

export interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: KeyValue[];
  events?: SpanEvent[];
  links?: SpanLink[];
  status?: { code?: number; message?: string };
}

export interface ExportTraceServiceRequest {
  resourceSpans: {
    resource: { attributes: KeyValue[] };
    scopeSpans: { scope: { name: string; version?: string }; spans: Span[]; schemaUrl?: string }[];
    schemaUrl?: string;
  }[];
}

/** An attribute value as a record gives it; `undefined` (and an empty list) leaves the attribute out. */
export type AttributeValue = string | number | boolean | readonly string[] | undefined;

function anyValue(v: string | number | boolean): AnyValue {
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  return Number.isSafeInteger(v) ? { intValue: String(v) } : { doubleValue: v };
}

/** A record's attributes as OTLP key-values, in the record's order; numbers that are whole are `intValue`. */
export function attributes(record: Readonly<Record<string, AttributeValue>>): KeyValue[] {
  const out: KeyValue[] = [];
  for (const [key, v] of Object.entries(record)) {
    if (v === undefined || (typeof v === 'number' && !Number.isFinite(v))) continue;
    if (Array.isArray(v)) {
      if (v.length) out.push({ key, value: { arrayValue: { values: v.map(anyValue) } } });
    } else out.push({ key, value: anyValue(v as string | number | boolean) });
  }
  return out;
}

/** Epoch milliseconds as OTLP's unsigned nanoseconds (decimal; a time that is not a number, or before 1970, is 0). */
export function unixNano(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return '0';
  const whole = Math.floor(ms);
  const micros = Math.round((ms - whole) * 1000);
  return `${BigInt(whole) * 1_000_000n + BigInt(micros) * 1000n}`;
}
