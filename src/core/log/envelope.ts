
/**
 * Event envelope check (dsh-log-rules L2.1, E3). Hand-written rather than a zod
 * schema because it runs on every row of a 100 MB log; the payload schemas in
 * payloads.ts cover the data.
 */
const ENVELOPE_KEYS = new Set(['type', 'seq', 'time', 'data', 'ignorable', 'surfaceOp', 'sourceEventSeqs']);

export type EnvelopeCheck = { ok: true } | { ok: false; path: string; reason: string };

export function checkEnvelope(row: Record<string, unknown>): EnvelopeCheck {
  for (const key in row) {
    if (!ENVELOPE_KEYS.has(key)) return { ok: false, path: key, reason: `unexpected envelope key "${key}"` };
  }
  if (typeof row.type !== 'string' || row.type.length === 0) return { ok: false, path: 'type', reason: 'type must be a non-empty string' };
  if (!Number.isSafeInteger(row.time)) return { ok: false, path: 'time', reason: 'time must be a safe integer' };
  if (!Object.hasOwn(row, 'data')) return { ok: false, path: 'data', reason: 'data is required' };
  if (Object.hasOwn(row, 'ignorable') && row.ignorable !== true) return { ok: false, path: 'ignorable', reason: 'ignorable may only be the literal true' };
  return { ok: true };
}
