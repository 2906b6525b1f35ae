import { divergenceText } from '../../core/compare/report.ts';
import type { RunSummary } from '../../core/compare/summary.ts';
import { useCompare } from '../../store/compare.ts';
import { VERDICT_TEXT } from '../diagnostics/verdict-text.ts';
import { compareCommand } from './commands.ts';

function RunName({ side, s }: { side: 'A' | 'B'; s: RunSummary }) {
  const v = VERDICT_TEXT[s.verdict];
  return (
    <span className="compare-run">
      <strong>{side}</strong> {s.name}
      {v.badge && <span className={`badge ${v.tone}`} data-verdict={s.verdict}>{v.badge}</span>}
    </span>
  );
}

/** Which runs, the verdict on their requests, the first divergence, and the shared cursor's buttons. */
export function CompareHeader() {
  const view = useCompare((s) => s.view);
  const seekRow = useCompare((s) => s.seekRow);
  if (!view) return null;
  const { report } = view;
  const first = report.firstDivergence;
  const button = (id: string, text: string) => {
    const c = compareCommand(id);
    return <button onClick={c.run} title={`${c.label} (${c.keys.join(', ')})`} aria-label={c.label}>{text}</button>;
  };
  const fork = report.fork;
  return (
    <div className="compare-head" role="group" aria-label="Comparison">
      <div className="compare-names">
        <RunName side="A" s={report.summary.a} />
        <span className="muted">vs</span>
        <RunName side="B" s={report.summary.b} />
        <span className="spacer" />
        {button('compare-prev-difference', '‹ difference')}
        {button('compare-prev-row', '‹ call')}
        {button('compare-next-row', 'call ›')}
        {button('compare-next-difference', 'difference ›')}
      </div>
      <div className="compare-result" role="status" aria-label="Comparison result">
        {report.notes.some((n) => n.kind === 'not-dsh')
          ? <span className="badge error">not comparable</span>
          : report.identical
          ? <span className="badge ok">identical requests</span>
          : <span className="badge warn">{report.divergences.length} differ · {report.gaps.length} gap{report.gaps.length === 1 ? '' : 's'}</span>}
        <span className="muted">{report.calls.aligned} of {report.calls.a} (A) and {report.calls.b} (B) calls aligned</span>
        {fork && <span className="muted">· {fork.child.toUpperCase()} is {fork.cutSeq > 0 ? `forked from ${fork.child === 'a' ? 'B' : 'A'} at seq ${fork.cutSeq} (${fork.inheritedCalls} inherited call${fork.inheritedCalls === 1 ? '' : 's'})` : `a child of ${fork.child === 'a' ? 'B' : 'A'} with no inherited prefix`}</span>}
        {first && <span className="first-divergence">First divergence: <button className="link" onClick={() => seekRow(first.row)}>{divergenceText(first)}</button></span>}
      </div>
      {report.notes.map((n, i) => <div key={i} className="diag warning compare-note" role="note">{n.message}</div>)}
    </div>
  );
}
