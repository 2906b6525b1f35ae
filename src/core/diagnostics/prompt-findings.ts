import { DIAGNOSTIC_DEFS, type DiagnosticCode } from './codes.ts';

/**
 * Findings of the prompt and request analyses (dsh-log-rules P10),
 * in the Diagnostic shape. Their codes live with every other code in
 * diagnostics/codes.ts.
 */

export type PromptFindingCode = Extract<DiagnosticCode, `request.${string}` | `prompt.${string}` | `context.${string}`>;

export interface PromptFinding {
  code: PromptFindingCode;
  severity: 'error' | 'warning' | 'info';
  message: string;
  seq?: number;
}

export function finding(code: PromptFindingCode, message: string, seq?: number, severity?: PromptFinding['severity']): PromptFinding {
  const f: PromptFinding = { code, severity: severity ?? DIAGNOSTIC_DEFS[code].severity, message };
  if (seq !== undefined) f.seq = seq;
  return f;
}
