// The OTLP protobuf schema, as OpenTelemetry JS's OTLP transformer compiled
// it from opentelemetry-proto (its generated protobufjs module): an export's
// JSON is turned into the proto's message (hex ids as bytes), encoded,
// decoded and turned back. What comes back equal is what the schema holds:
// a misnamed field, a wrong type or an id of the wrong length is lost or
// changed on the way, and the comparison fails.
import { createRequire } from 'node:module';
import type { ExportTraceServiceRequest } from '../../src/core/otlp/otlp-json.ts';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const root: any = require('@opentelemetry/otlp-transformer/build/src/generated/root.js');
const Request = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

const ID_FIELDS = new Set(['traceId', 'spanId', 'parentSpanId']);

function mapIds(value: unknown, f: (key: string, v: string) => unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => mapIds(v, f));
  if (!value || typeof value !== 'object' || value instanceof Uint8Array) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = ID_FIELDS.has(k) && typeof v === 'string' ? f(k, v) : mapIds(v, f);
  return out;
}

/** The request through the protobuf schema and back, ids as hex again; throws when the schema refuses it. */
export function throughProtobuf(request: ExportTraceServiceRequest): { bytes: Uint8Array; back: unknown } {
  const proto = mapIds(request, (_k, hex) => {
    if (!/^[0-9a-f]*$/.test(hex) || hex.length % 2) throw new Error(`not a hex id: ${hex}`);
    return Buffer.from(hex, 'hex');
  });
  const message = Request.fromObject(proto);
  const problem = Request.verify(message);
  if (problem) throw new Error(`OTLP schema: ${problem}`);
  const bytes: Uint8Array = Request.encode(message).finish();
  const decoded = Request.toObject(Request.decode(bytes), { longs: String, enums: Number, bytes: String, defaults: false });
  return { bytes, back: mapIds(decoded, (_k, b64) => Buffer.from(b64, 'base64').toString('hex')) };
}

/** Each trace and span id's length in bytes, as the schema reads them (16 and 8). */
export function idLengths(request: ExportTraceServiceRequest): { trace: number[]; span: number[] } {
  const message = Request.decode(Request.encode(Request.fromObject(mapIds(request, (_k, hex) => Buffer.from(hex, 'hex')))).finish());
  const trace: number[] = [];
  const span: number[] = [];
  for (const rs of message.resourceSpans) for (const ss of rs.scopeSpans) for (const s of ss.spans) {
    trace.push(s.traceId.length);
    span.push(s.spanId.length);
    if (s.parentSpanId?.length) span.push(s.parentSpanId.length);
    for (const l of s.links ?? []) { trace.push(l.traceId.length); span.push(l.spanId.length); }
  }
  return { trace, span };
}
