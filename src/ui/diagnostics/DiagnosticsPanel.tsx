import { useCallback, useMemo, useState } from 'react';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { partialText, type Verdict } from '../../core/session/verdict.ts';
import type { LoadSummary } from '../../worker/protocol.ts';
import { VERDICT_TEXT } from './verdict-text.ts';
import type { Severity } from '../../core/diagnostics/diagnostic.ts';
import { findingRows } from './finding-rows.ts';
import { FindingList } from './FindingList.tsx';
import { formatCount } from '../counts.ts';

/** The verdict in full: its heading, the core's summary, what is partial and what this app knows. */
function VerdictBox({ verdict }: { verdict: Verdict }) {
  const text = VERDICT_TEXT[verdict.kind];
  return (
    <div className={`verdict verdict-${verdict.kind}`} role="status" aria-label="Verdict">
      <span className={`badge ${text.tone}`}>{text.heading}</span>
      {verdict.kind !== 'ok' && <span className="verdict-summary">{verdict.summary}</span>}
      {verdict.kind === 'ok' && verdict.requires && <span className="muted">needs DSH {verdict.requires.release} or later ({verdict.requires.because.join(', ')})</span>}
      {verdict.partial && (
        <span className="verdict-partial warn">
          {partialText(verdict.partial)}
        </span>
      )}
      {verdict.exact.length > 0 && <span className="verdict-exact">exact: {verdict.exact.join(', ')}</span>}
      {verdict.kind === 'newer-than-app' && <span className="muted">this app follows {verdict.known}</span>}
    </div>
  );
}

/** Who folded the projection units at load (docs/performance.md). */
const PROJECTED_BY = { walk: 'folded by the load', helper: 'folded on a second core', store: 'folded again by the load (the helper did not answer)' } as const;

/** The load line's times: seconds to a tenth. */
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
/** Its exact time, on hover: a load of 0.6 s is 560 ms or 640 ms. */
const exactMs = (ms: number): string => `${formatCount(Math.round(ms))} ms`;

/** How long the load waited for the second core's answer after its own read, when it used one. */
const helperWait = (summary: LoadSummary): string =>
  summary.projectedBy === 'helper' && summary.helperWaitMs !== undefined ? `, which the load waited ${seconds(summary.helperWaitMs)} for after its own read` : '';

/** How much of the load was waiting for the file's or the download's bytes, when it shows at a tenth of a second. */
const sourceWait = (summary: LoadSummary): string =>
  summary.sourceWaitMs !== undefined && summary.sourceWaitMs >= 50 ? ` (${seconds(summary.sourceWaitMs)} of it waiting for the log's bytes)` : '';

/** Every finding: severity, code, line/seq and the rule; click jumps to the event. */
export function DiagnosticsPanel() {
  const summary = useSession((s) => s.summary);
  const seek = useCursor((s) => s.seek);
  const [minSeverity, setMinSeverity] = useState<Severity>('info');
  const [opened, setOpened] = useState<Partial<Record<Severity, boolean>>>({});
  const toggle = useCallback((severity: Severity, open: boolean) => setOpened((o) => ({ ...o, [severity]: open })), []);
  const rows = useMemo(() => findingRows(summary?.diagnostics ?? [], minSeverity, opened), [summary, minSeverity, opened]);
  if (!summary) return null;
  const counts = { error: 0, warning: 0, info: 0 };
  for (const d of summary.diagnostics) counts[d.severity]++;
  return (
    <section className="diagnostics" aria-label="Diagnostics">
      <div className="diag-summary">
        <VerdictBox verdict={summary.verdict} />
        {summary.tornTail && <span className="badge">torn tail: {summary.tornTail.bytes} bytes dropped</span>}
        {summary.loadMs > 0 && <span className="muted" aria-label="Load time" title={exactMs(summary.loadMs)}>opened in {seconds(summary.loadMs)}{sourceWait(summary)}{summary.projectedBy ? ` · projections ${PROJECTED_BY[summary.projectedBy]}` : ''}{helperWait(summary)}</span>}
        <select aria-label="Minimum severity" value={minSeverity} onChange={(e) => setMinSeverity(e.target.value as typeof minSeverity)}>
          <option value="info">all ({summary.diagnostics.length})</option>
          <option value="warning">warnings and errors ({counts.warning + counts.error})</option>
          <option value="error">errors ({counts.error})</option>
        </select>
      </div>
      {rows.length > 0 ? <FindingList rows={rows} onToggle={toggle} onSeek={seek} /> : <p className="muted pad">No findings.</p>}
    </section>
  );
}
