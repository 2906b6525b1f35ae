import type { RunSummary } from '../../core/compare/summary.ts';
import { useCompare } from '../../store/compare.ts';

/** Above this many turns the outcomes are counted, not listed. */
const CHIPS_MAX = 40;

function tally(s: RunSummary): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of s.turnOutcomes) out.set(t.outcome, (out.get(t.outcome) ?? 0) + 1);
  return out;
}

function Row({ side, s }: { side: string; s: RunSummary }) {
  return (
    <tr>
      <th scope="row">{side}</th>
      <td>{s.calls}</td>
      <td>{s.turns}</td>
      <td>{s.tokensIn.toLocaleString()} / {s.tokensOut.toLocaleString()}</td>
      <td>{s.cacheReads.toLocaleString()}</td>
      <td>{s.compactions}</td>
      <td className="outcomes">{s.turnOutcomes.length <= CHIPS_MAX
        ? s.turnOutcomes.map((t, i) => <span key={i} className={`outcome o-${t.outcome}`} title={`turn ${t.turn}: ${t.outcome}`}>{t.turn}:{t.outcome}</span>)
        : [...tally(s)].map(([outcome, n]) => <span key={outcome} className={`outcome o-${outcome}`}>{n}× {outcome}</span>)}</td>
    </tr>
  );
}

/** One line per run: calls, turns, tokens in/out, cache reads, compactions, how each turn ended. */
export function SummaryTable() {
  const view = useCompare((s) => s.view);
  if (!view) return null;
  const { a, b } = view.report.summary;
  return (
    <table className="grid-table compare-summary" aria-label="Run summary">
      <thead><tr><th /><th>calls</th><th>turns</th><th>tokens in / out</th><th>cache reads</th><th>compactions</th><th>turn outcomes</th></tr></thead>
      <tbody><Row side="A" s={a} /><Row side="B" s={b} /></tbody>
    </table>
  );
}
