import { useMemo, useState } from 'react';
import uPlot from 'uplot';
import { callAtIndex, callColumns, usageColumns } from '../../core/charts/aligned.ts';
import { hasUsage, seriesValueAt, type ChartData } from '../../core/charts/series.ts';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { useDeferredCursor } from '../hooks/useDeferredCursor.ts';
import { useWorkerQuery } from '../hooks/useWorkerQuery.ts';
import { cssVar, UplotChart } from './uplot-chart.tsx';
import { CALL_STEPS, CostFigure } from './CostFigure.tsx';

const tokens = (n: number | null | undefined) => (n === null || n === undefined ? '–' : Math.round(n).toLocaleString('en'));
const short = (n: number) => (n >= 1e6 ? `${+(n / 1e6).toFixed(2)}M` : n >= 1e3 ? `${+(n / 1e3).toFixed(1)}k` : String(Math.round(n)));

/** The charts (docs/open-and-navigate.md): each a figure with a name, a text alternative, the cursor drawn, and click to seek. */
export function ChartsPanel() {
  const summary = useSession((s) => s.summary);
  const cursor = useDeferredCursor();
  const seek = useCursor((s) => s.seek);
  const base = useWorkerQuery((c) => c.charts(false), [summary]);
  // Each call's figures come with the summary's request rows: the worker does not send them again.
  const data = useMemo(() => (base && summary ? { ...base, calls: summary.requests.map((r) => r.tokens) } : null), [base, summary]);
  if (!summary) return null;
  if (!data) return <p className="muted pad">Drawing the charts…</p>;
  const clamp = (i: number) => Math.max(0, Math.min(summary.count - 1, Math.round(i)));
  const turnAt = (i: number) => summary.columns.turn[clamp(i)] ?? 0;
  return (
    <div className="charts-panel scroll" aria-label="Charts">
      <UsageFigure data={data} cursor={cursor} seek={(i) => seek(clamp(i))} turnAt={turnAt} />
      <TokensFigure data={data} cursor={cursor} seek={(i) => seek(clamp(i))} />
      <CostFigure data={data} cursor={cursor} seek={(i) => seek(clamp(i))} />
    </div>
  );
}

function UsageFigure({ data, cursor, seek, turnAt }: { data: ChartData; cursor: number; seek: (index: number) => void; turnAt: (index: number) => number }) {
  const cols = useMemo(() => usageColumns(data.surface, data.calls), [data]);
  const options = useMemo(() => {
    const muted = cssVar('--muted', '#6a7280');
    const drawMarks = (u: uPlot) => {
      const { ctx, bbox } = u;
      ctx.save();
      for (const m of data.marks) {
        const left = u.valToPos(m.index, 'x', true);
        ctx.strokeStyle = m.compaction ? '#c62828' : '#e07b00';
        ctx.setLineDash(m.compaction ? [] : [4 * devicePixelRatio, 3 * devicePixelRatio]);
        ctx.lineWidth = devicePixelRatio;
        ctx.beginPath();
        ctx.moveTo(left, bbox.top);
        ctx.lineTo(left, bbox.top + bbox.height);
        ctx.stroke();
      }
      ctx.restore();
    };
    return {
      height: 220,
      scales: { x: { time: false } },
      cursor: { drag: { x: false, y: false } },
      legend: { live: true },
      series: [
        { label: 'event', value: (_u: uPlot, v: number | null) => (v === null ? '–' : `#${v} · turn ${turnAt(v)}`) },
        { label: 'surface (estimated)', stroke: '#2f6feb', width: 1.5, paths: uPlot.paths.stepped!({ align: 1 }), points: { show: false }, value: (_u: uPlot, v: number | null) => tokens(v), spanGaps: true },
        { label: 'prompt (logged)', stroke: '#e07b00', width: 0, points: { show: true, size: 5, fill: '#e07b00' }, value: (_u: uPlot, v: number | null) => tokens(v) },
        { label: 'context window', stroke: '#c62828', width: 1, dash: [6, 4], points: { show: false }, value: (_u: uPlot, v: number | null) => tokens(v), spanGaps: true },
      ],
      axes: [
        // A tick says its turn once: the next ticks of the same turn stay blank.
        { stroke: muted, values: (_u: uPlot, splits: number[]) => splits.map((v, i) => (i > 0 && turnAt(splits[i - 1]) === turnAt(v) ? '' : `turn ${turnAt(v)}`)) },
        { stroke: muted, size: 56, values: (_u: uPlot, splits: number[]) => splits.map(short) },
      ],
      hooks: {
        draw: [drawMarks],
        ready: [(u: uPlot) => u.over.addEventListener('click', () => { if (u.cursor.left !== undefined && u.cursor.left >= 0) seek(u.posToVal(u.cursor.left, 'x')); })],
      },
    } satisfies Omit<uPlot.Options, 'width'>;
  // seek and turnAt read the current log; the chart is remade with the data.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data]);
  const aligned = useMemo(() => [cols.x, cols.estimated, cols.logged, cols.window] as uPlot.AlignedData, [cols]);
  // Facts of the whole log, once per log (the cursor moves often; these do not move with it).
  const { peak, lastCall, compactions } = useMemo(() => ({
    peak: cols.estimated.reduce((m, v, i) => (v > cols.estimated[m] ? i : m), 0),
    lastCall: data.calls.findLast((c) => c.prompt !== undefined),
    compactions: data.marks.filter((m) => m.compaction).length,
  }), [cols, data]);
  const now = seriesValueAt(data.surface.x, data.surface.tokens, cursor);
  return (
    <figure className="chart" aria-label="Context usage over time">
      <h3>Context usage over time</h3>
      <UplotChart options={options} data={aligned} cursorX={cursor} label="Context usage over time" />
      <figcaption>
        {cols.x.length === 0 ? 'No surface change in this log.' : <>
          The surface the model sees, estimated by DSH&apos;s token meter: <strong>~{tokens(now)}</strong> tokens at the cursor, at most ~{tokens(cols.estimated[peak])} (turn {turnAt(cols.x[peak])}).{' '}
          {lastCall ? <>The last call that reported usage sent {tokens(lastCall.prompt)} prompt tokens{lastCall.contextWindow ? <> of a {tokens(lastCall.contextWindow)}-token window</> : ''}. </> : 'No call reported usage. '}
          {compactions} compaction{compactions === 1 ? '' : 's'} (red) and {data.marks.length - compactions} other replace{data.marks.length - compactions === 1 ? '' : 's'} (orange, dashed) marked.
          {data.surface.binned && <> {data.surface.changes.toLocaleString('en')} surface changes drawn as {data.surface.x.length.toLocaleString('en')} points (each bin keeps its peak).</>}
          {cols.loggedBinned && <> The {data.calls.length.toLocaleString('en')} calls&apos; prompts are drawn as the highest and lowest of each run of calls.</>}
          {' '}Click the chart to move the cursor there.
        </>}
      </figcaption>
    </figure>
  );
}

const BUCKETS = [
  { key: 'output', label: 'output', color: '#8e44ad', stack: 3 },
  { key: 'cacheWrite', label: 'cache write', color: '#e07b00', stack: 2 },
  { key: 'cacheRead', label: 'cache read', color: '#2e9e5b', stack: 1 },
  { key: 'fresh', label: 'fresh input', color: '#2f6feb', stack: 0 },
] as const;

function TokensFigure({ data, cursor, seek }: { data: ChartData; cursor: number; seek: (index: number) => void }) {
  const cols = useMemo(() => callColumns(data.calls), [data]);
  const [hover, setHover] = useState<number | null>(null);
  const options = useMemo(() => {
    const muted = cssVar('--muted', '#6a7280');
    const bars = uPlot.paths.bars!({ size: [0.85, 48] });
    return {
      height: 200,
      scales: { x: { time: false } },
      cursor: { drag: { x: false, y: false } },
      series: [
        { label: 'call', value: (_u: uPlot, v: number | null) => (v === null ? '–' : `#${v}`) },
        // Drawn tallest first: each bar runs from 0 to its running sum, the smaller ones on top.
        ...BUCKETS.map((b) => ({
          label: b.label, stroke: b.color, fill: `${b.color}cc`, paths: bars, points: { show: false },
          value: (_u: uPlot, _v: number | null, _s: number, i: number | null) => (i === null ? '–' : tokens(cols[b.key][i])),
        })),
      ],
      axes: [
        { stroke: muted, incrs: CALL_STEPS },
        { stroke: muted, size: 56, values: (_u: uPlot, splits: number[]) => splits.map(short) },
      ],
      hooks: {
        setCursor: [(u: uPlot) => setHover(u.cursor.idx ?? null)],
        ready: [(u: uPlot) => u.over.addEventListener('click', () => { const i = u.cursor.idx; const call = i === null || i === undefined ? undefined : data.calls[cols.call[i]]; if (call) seek(call.index); })],
      },
    } satisfies Omit<uPlot.Options, 'width'>;
  // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data, cols]);
  const aligned = useMemo(() => [cols.x, cols.stacked[3], cols.stacked[2], cols.stacked[1], cols.stacked[0]] as uPlot.AlignedData, [cols]);
  const atCursor = callAtIndex(data.calls, cursor);
  // A hovered point is a drawn one: the call it draws.
  const shown = hover !== null ? cols.call[hover] ?? null : atCursor >= 0 ? atCursor : null;
  const call = shown !== null ? data.calls[shown] : undefined;
  const { reported, totals } = useMemo(() => {
    const sum = (k: 'fresh' | 'cacheRead' | 'cacheWrite' | 'output') => data.calls.reduce((n, c) => n + (c[k] ?? 0), 0);
    return { reported: data.calls.filter(hasUsage).length, totals: { fresh: sum('fresh'), cacheRead: sum('cacheRead'), cacheWrite: sum('cacheWrite'), output: sum('output') } };
  }, [data]);
  return (
    <figure className="chart" aria-label="Tokens per model call">
      <h3>Tokens per model call</h3>
      {data.calls.length > 0 && <UplotChart options={options} data={aligned} cursorX={atCursor >= 0 ? atCursor + 1 : null} label="Tokens per model call" />}
      <figcaption>
        {data.calls.length === 0 ? 'No model calls in this log.' : <>
          {reported} of {data.calls.length} calls reported usage: {tokens(totals.fresh)} fresh input, {tokens(totals.cacheRead)} cache read, {tokens(totals.cacheWrite)} cache write and {tokens(totals.output)} output tokens in all, stacked per call{cols.binned ? <> (drawn as {cols.x.length.toLocaleString('en')} bars: each keeps the biggest of its {Math.round(data.calls.length / cols.x.length)} or so calls)</> : ''}.
          {call && <span className="chart-hover" role="status"> Call {call.call + 1}{hover === null ? ' (at the cursor)' : ''}: {tokens(call.fresh)} fresh, {tokens(call.cacheRead)} cache read, {tokens(call.cacheWrite)} cache write, {tokens(call.output)} output{call.breakReasons.length ? <> · cache prefix broke: {call.breakReasons.join(', ')}</> : call.call > 0 ? ' · extends the previous call' : ''}.</span>}
          {' '}Click a bar to move the cursor to that call.
        </>}
      </figcaption>
    </figure>
  );
}
