import { DIAGNOSTIC_DEFS, type DiagnosticCode, type Severity } from './codes.ts';

export type { DiagnosticCode, Severity };

/**
 * A finding about the log. Every rule the core checks reports through this
 * one shape, so the UI, the CLI and the tests can list, filter and jump to
 * findings without knowing which rule produced them.
 */
export interface Diagnostic {
  severity: Severity;
  /** Stable identifier from DIAGNOSTIC_DEFS; tests and filters key on it. */
  code: DiagnosticCode;
  message: string;
  /** 1-based physical line in the decoded text (the header is line 1). */
  line?: number;
  seq?: number;
  /** JSON path inside the row, e.g. `data.message.content[0]`. */
  path?: string;
  /** True when DSH itself would refuse to restore a log with this finding. */
  refuses?: boolean;
  /** What the finding is about when the verdict must name it: an event type, or `format N`. */
  subject?: string;
}

export interface Where {
  line?: number;
  seq?: number;
  path?: string;
  subject?: string;
}

export function diagnostic(code: DiagnosticCode, message: string, where: Where = {}): Diagnostic {
  const def: { severity: Severity; refuses?: boolean } = DIAGNOSTIC_DEFS[code];
  const d: Diagnostic = { severity: def.severity, code, message };
  if (where.line !== undefined) d.line = where.line;
  if (where.seq !== undefined) d.seq = where.seq;
  if (where.path !== undefined) d.path = where.path;
  if (where.subject !== undefined) d.subject = where.subject;
  if (def.refuses) d.refuses = true;
  return d;
}

/** The first finding that makes DSH refuse the log, if any. */
export function firstRefusal(diagnostics: readonly Diagnostic[]): Diagnostic | undefined {
  return diagnostics.find((d) => d.refuses);
}
