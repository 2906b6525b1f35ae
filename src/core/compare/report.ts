import type { CompareReport, Divergence } from './compare.ts';
import type { DiffKind } from './request-parts.ts';
import type { RunSummary } from './summary.ts';

/**
 * What `dsh-devtools diff A B` (npm run diff) prints: the report as a JSON document
 * (without the row list, which the app reads) or a short human report.
 */
export type DiffDocument = Omit<CompareReport, 'rows'>;

export function diffDocument(report: CompareReport): DiffDocument {
  const { rows: _rows, ...doc } = report;
  return doc;
}

export const KIND_TEXT: Record<DiffKind, string> = {
  config: 'config',
  system: 'system prompt',
  tools: 'tools',
  messages: 'messages',
};

/** One divergence in a line: which calls, what differs first, and the rest. */
export function divergenceText(d: Divergence): string {
  const first = d.what === 'messages' ? `messages differ from message ${d.messageIndex} (0-based; ${d.messageIndex ? `${d.messageIndex} kept before it` : 'none kept before it'})` : `${KIND_TEXT[d.what]} differs`;
  const also = d.kinds.filter((k) => k !== d.what).map((k) => (k === 'messages' ? `messages from ${d.messageIndex}` : KIND_TEXT[k]));
  return `call ${d.callA} of A (seq ${d.seqA}) vs call ${d.callB} of B (seq ${d.seqB}): ${first}${also.length ? `; also ${also.join(', ')}` : ''}`;
}

const LIST_MAX = 40;

const COLUMNS = [5, 7, 7, 17, 13, 13];

function row(cells: string[]): string {
  return `  ${cells.slice(0, COLUMNS.length).map((c, i) => (i === 0 ? c.padEnd(COLUMNS[i]) : c.padStart(COLUMNS[i]))).join('')}  ${cells[COLUMNS.length] ?? ''}`.trimEnd();
}

function summaryLine(side: string, s: RunSummary): string {
  const outcomes = new Map<string, number>();
  for (const t of s.turnOutcomes) outcomes.set(t.outcome, (outcomes.get(t.outcome) ?? 0) + 1);
  const ends = [...outcomes].map(([k, n]) => `${n} ${k}`).join(', ') || '-';
  return row([side, String(s.calls), String(s.turns), `${s.tokensIn}/${s.tokensOut}`, String(s.cacheReads), String(s.compactions), ends]);
}

/** The verdict in a line, then the first difference. */
function resultLines(report: CompareReport, unreadable: string[]): string[] {
  if (unreadable.length === 2) return ['result   neither log is a DSH session log: nothing to compare'];
  if (unreadable.length === 1) {
    const other = unreadable[0] === 'A' ? 'B' : 'A';
    return [`result   ${unreadable[0]} is not a DSH session log: nothing to align; ${other}'s ${report.calls[other === 'A' ? 'a' : 'b']} calls are listed as gaps`];
  }
  const differing = report.divergences.length;
  const out = [report.identical
    ? `result   identical requests: ${report.calls.aligned} calls aligned, none differs`
    : `result   differ: ${report.calls.aligned} calls aligned, ${differing} differ${differing === 1 ? 's' : ''}, ${report.gaps.length} gap${report.gaps.length === 1 ? '' : 's'}`];
  if (report.firstDivergence) out.push(`first    ${divergenceText(report.firstDivergence)}`);
  else if (report.gaps.length) {
    const g = report.gaps[0];
    out.push(`first    call ${g.call} of ${g.side.toUpperCase()} (turn ${g.turn} step ${g.step}, attempt ${g.attempt}, seq ${g.seq}) has no counterpart in ${g.side === 'a' ? 'B' : 'A'}`);
  }
  return out;
}

export function diffText(report: CompareReport, names: { a: string; b: string }): string {
  const { a, b } = report.summary;
  const lines = [
    `A  ${names.a}  (${a.calls} calls, ${a.turns} turns, ${a.verdict})`,
    `B  ${names.b}  (${b.calls} calls, ${b.turns} turns, ${b.verdict})`,
  ];
  const f = report.fork;
  if (f) {
    lines.push(f.cutSeq > 0
      ? `fork     ${f.child.toUpperCase()} is forked from ${f.child === 'a' ? 'B' : 'A'} at seq ${f.cutSeq} (${f.inheritedCalls} inherited call${f.inheritedCalls === 1 ? '' : 's'})`
      : `fork     ${f.child.toUpperCase()} is a child of ${f.child === 'a' ? 'B' : 'A'} with no inherited prefix`);
  }
  const differing = report.divergences.length;
  const unreadable = report.notes.filter((n) => n.kind === 'not-dsh').map((n) => n.side.toUpperCase());
  lines.push(...resultLines(report, unreadable));
  lines.push('', row(['run', 'calls', 'turns', 'tokens in/out', 'cache reads', 'compactions', 'turn outcomes']), summaryLine('A', a), summaryLine('B', b));
  if (differing) {
    lines.push('', `differences (${differing}):`);
    for (const d of report.divergences.slice(0, LIST_MAX)) lines.push(`  ${divergenceText(d)}`);
    if (differing > LIST_MAX) lines.push(`  … ${differing - LIST_MAX} more (--json lists every one)`);
  }
  if (report.gaps.length) {
    lines.push('', `gaps (${report.gaps.length}): calls only one run made`);
    for (const g of report.gaps.slice(0, LIST_MAX)) lines.push(`  ${g.side.toUpperCase()} call ${g.call} (turn ${g.turn} step ${g.step}, attempt ${g.attempt}, seq ${g.seq})`);
    if (report.gaps.length > LIST_MAX) lines.push(`  … ${report.gaps.length - LIST_MAX} more (--json lists every one)`);
  }
  if (report.notes.length) {
    lines.push('', 'notes:');
    for (const n of report.notes) lines.push(`  ${n.message}`);
  }
  return lines.join('\n');
}
