import type { LogSummary } from './summary.ts';

/**
 * A summary as one NDJSON record: the fields the issue names first, in a
 * fixed order (a database maps columns by name, a person reads the first
 * ones), then the rest of the table's fields.
 */
export function summaryRecord(s: LogSummary): Record<string, unknown> {
  const { file, id, title, format, events, turns, calls, models, tokens, findings, ok, verdict, parentSession, ...rest } = s;
  return { file, id, title, format, events, turns, calls, models, tokens, findings, ok, verdict, parentSession, ...rest };
}
