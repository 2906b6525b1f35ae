import { memo, useMemo } from 'react';
import { useDeferredCursor } from '../hooks/useDeferredCursor.ts';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import type { LoadSummary } from '../../worker/protocol.ts';
import { GrownRowsCache } from '../grown-rows-cache.ts';
import { generationSteps, NO_STEPS, type Steps } from './generation-steps.ts';

const W = 240;
const H = 28;

/**
 * replaceGeneration and contentGeneration as step charts over the log; each
 * step is a link to the event that caused it.
 */
export function GenerationsChart() {
  const summary = useSession((s) => s.summary);
  const cursor = useDeferredCursor();
  const seek = useCursor((s) => s.seek);
  const steps = useMemo(() => (summary ? stepsByRows.get(summary) : NO_STEPS), [summary]);
  if (!summary) return null;
  return (
    <div className="generations" aria-label="Generation step charts">
      <svg width={W} height={H} role="img" aria-label={`replaceGeneration steps: ${steps.replace.length}; contentGeneration steps: ${steps.content.length}`}>
        <StepMarks summary={summary} steps={steps} seek={seek} />
        <line x1={xOf(summary, cursor)} x2={xOf(summary, cursor)} y1={0} y2={H} className="strip-cursor-line" />
      </svg>
      <span className="muted legend-gen"><span className="gen-replace-key">replace</span> / <span className="gen-content-key">content</span> generation</span>
    </div>
  );
}

const stepsByRows = new GrownRowsCache<Steps>(generationSteps);

/** The x of event `i` on the chart. */
const xOf = (summary: LoadSummary, i: number) => (i / Math.max(1, summary.count - 1)) * W;

/**
 * The two step lines and a mark per step, the same for the whole log: kept apart from the cursor's
 * line so a step of the cursor does not build a mark per compaction again (twice a step).
 */
const StepMarks = memo(function StepMarks({ summary, steps, seek }: { summary: LoadSummary; steps: { replace: number[]; content: number[] }; seek(index: number): void }) {
  const path = (points: number[], max: number) => {
    let d = `M0 ${H - 2}`;
    points.forEach((i, k) => { const y = H - 2 - ((k + 1) / Math.max(1, max)) * (H - 6); d += ` H${xOf(summary, i).toFixed(1)} V${y.toFixed(1)}`; });
    return `${d} H${W}`;
  };
  const max = Math.max(1, steps.content.length);
  return (
    <>
      <path d={path(steps.content, max)} className="gen-content" fill="none" />
      <path d={path(steps.replace, max)} className="gen-replace" fill="none" />
      {steps.content.map((i) => <circle key={i} cx={xOf(summary, i)} cy={H / 2} r={4} className="gen-hit" onClick={() => seek(i)}><title>{`seq ${summary.columns.seq[i]}: ${summary.typeNames[summary.columns.typeId[i]]}`}</title></circle>)}
    </>
  );
});
