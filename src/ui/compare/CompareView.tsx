import { useCallback, useState } from 'react';
import { useCompare, type CompareTab } from '../../store/compare.ts';
import type { ListWindow } from '../../worker/protocol.ts';
import { useCursor } from '../../store/cursor.ts';
import { AlignmentList } from './AlignmentList.tsx';
import { CompareHeader } from './CompareHeader.tsx';
import { ContextCompare } from './ContextCompare.tsx';
import { DifferencePanel } from './DifferencePanel.tsx';
import { ProjectionsCompare } from './ProjectionsCompare.tsx';
import { SideCursors } from './SideCursors.tsx';
import { SummaryTable } from './SummaryTable.tsx';
import { SurfaceCompare } from './SurfaceCompare.tsx';
import { useCompareQuery } from './useCompareQuery.ts';
import { WhatIfCalls } from '../whatif/WhatIfCalls.tsx';

const TABS: [CompareTab, string][] = [['difference', 'Difference'], ['surface', 'Surface'], ['projections', 'Projections'], ['context', 'Runtime context']];
/** The paired rows asked for before the list has said which are in view. */
const FIRST_PAIRS: ListWindow = { from: 0, count: 120 };
const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;

/**
 * Compare mode (docs/compare.md): two runs aligned call by call, the first
 * divergence explained, and side-by-side panels at both cursors. Every
 * rule is the core's; this only lays the answers out.
 */
export function CompareView() {
  const status = useCompare((s) => s.status);
  const nameB = useCompare((s) => s.nameB);
  const progress = useCompare((s) => s.progress);
  const error = useCompare((s) => s.error);
  const exit = useCompare((s) => s.exit);
  const tab = useCompare((s) => s.tab);
  const setTab = useCompare((s) => s.setTab);
  const indexA = useCursor((s) => s.index);
  const indexB = useCompare((s) => s.indexB);
  const panels = tab !== 'difference';
  // B is no workspace entry when it is the open log edited (docs/whatif.md): its calls' token and prefix changes lead.
  const whatIf = useCompare((s) => s.entry === null);
  // The paired-surface rows in view (the Surface tab says which as it scrolls): a long session's are not all sent.
  const [pairWindow, setPairWindow] = useState<ListWindow>(FIRST_PAIRS);
  const onPairWindow = useCallback((w: ListWindow) => setPairWindow((old) => (old.from === w.from && old.count === w.count ? old : w)), []);
  const cursors = `${indexA}:${indexB}`;
  // Each answer carries the cursors it was asked at: a slow one (the first at the end of two long sessions) must not pass for the new cursors'.
  const answer = useCompareQuery((c) => (panels && status === 'ready' ? c['compare-at'](indexA, indexB, pairWindow).then((at) => ({ at, cursors })) : null), [panels, status, indexA, indexB, pairWindow]);
  const at = answer?.at ?? null;
  const stale = answer !== null && answer.cursors !== cursors;
  if (status === 'loading') {
    return (
      <div className="load-status" role="status" aria-label="Loading">
        <span>Loading {nameB} to compare…</span>
        {progress && <span className="mono">{mb(progress.bytesIn)}{progress.totalBytes ? ` of ${mb(progress.totalBytes)}` : ''} · {progress.events.toLocaleString()} events</span>}
        <button onClick={exit}>Cancel</button>
      </div>
    );
  }
  if (status === 'error') return <div className="load-error" role="alert"><span>Could not compare with {nameB}: {error}</span><button onClick={exit}>Exit compare</button></div>;
  return (
    <section className="compare" aria-label="Compare">
      <CompareHeader />
      <SummaryTable />
      {whatIf && <WhatIfCalls />}
      <div className="compare-body">
        <AlignmentList />
        <section className="panel compare-main" aria-label="Compared at the cursors">
          <SideCursors />
          <div className="tabs" role="tablist">
            {TABS.map(([id, label]) => <button key={id} role="tab" aria-selected={tab === id} className={tab === id ? 'active' : ''} onClick={() => setTab(id)}>{label}</button>)}
          </div>
          {tab === 'difference' && <DifferencePanel />}
          {panels && stale && at && (
            <p className="compare-updating" role="status">
              Comparing at the new cursors… shown until then: A at seq {at.a?.seq ?? '–'}, B at seq {at.b?.seq ?? '–'}.
            </p>
          )}
          <div className={stale ? 'compare-panel stale' : 'compare-panel'} aria-busy={stale}>
            {tab === 'surface' && <SurfaceCompare at={at} onWindow={onPairWindow} />}
            {tab === 'projections' && <ProjectionsCompare at={at} />}
            {tab === 'context' && <ContextCompare at={at} />}
          </div>
        </section>
      </div>
    </section>
  );
}
