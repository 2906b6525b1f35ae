/**
 * Recognising prompt failures in a log (dsh-log-rules P1.6): the
 * turn ends with `turn/end {reason:{kind:'error', error:{code:'UNKNOWN',
 * message}}}` and no request is sent.
 */
export type PromptFailureKind =
  | 'unknown-variable'
  | 'malformed-reference'
  | 'variable-without-value'
  | 'multiple-complete-sections'
  | 'tool-order'
  | 'reserved-tool-name';

const PREFIXES: [string, PromptFailureKind][] = [
  ['unknown prompt variable', 'unknown-variable'],
  ['malformed prompt variable reference', 'malformed-reference'],
  ['prompt variable "{{', 'variable-without-value'],
  ['multiple complete prompt sections', 'multiple-complete-sections'],
  ['toolOrder lists', 'tool-order'],
  ['tool provider returned reserved tool name', 'reserved-tool-name'],
];

/** The failure kind an error message names, searched anywhere in an error chain text. */
export function classifyPromptError(message: string): PromptFailureKind | undefined {
  for (const [prefix, kind] of PREFIXES) {
    if (message.startsWith(prefix) || message.includes(`: ${prefix}`) || message.includes(`\n${prefix}`)) return kind;
  }
  return undefined;
}

export interface PromptFailure {
  /** seq of the turn/end that reports it. */
  seq: number;
  turn: number;
  kind: PromptFailureKind;
  message: string;
}

/** The prompt failure a turn/end reports, if it reports one. */
export function promptFailureOf(e: { type: string; seq: number; data: any }): PromptFailure | undefined {
  if (e.type !== 'turn/end' || e.data?.reason?.kind !== 'error') return undefined;
  const message = e.data.reason?.error?.message;
  if (typeof message !== 'string') return undefined;
  const kind = classifyPromptError(message);
  return kind ? { seq: e.seq, turn: e.data?.turn, kind, message } : undefined;
}

/** Turns that ended on a prompt assembly or interpolation error: no request was sent. */
export function findPromptFailures(events: Iterable<{ type: string; seq: number; data: any }>): PromptFailure[] {
  const out: PromptFailure[] = [];
  for (const e of events) {
    const failure = promptFailureOf(e);
    if (failure) out.push(failure);
  }
  return out;
}
