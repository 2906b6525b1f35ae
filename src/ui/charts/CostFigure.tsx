import { useMemo, useState } from 'react';
import uPlot from 'uplot';
import { callAtIndex, drawnCalls } from '../../core/charts/aligned.ts';
import { callCost, priceFor, type ModelPrice } from '../../core/charts/prices.ts';
import { hasUsage, type ChartData } from '../../core/charts/series.ts';
import { usePrices } from './price-store.ts';
import { cssVar, UplotChart } from './uplot-chart.tsx';

/** Call numbers are whole: the axis steps by whole calls. */
export const CALL_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000];

const usd = (n: number | null | undefined) => (n === null || n === undefined ? '–' : n < 0.01 ? `$${n.toFixed(5)}` : `$${n.toFixed(n < 1 ? 4 : 2)}`);

/** Cost per call and in all, from the price table; a model without a price says "no price". */
export function CostFigure({ data, cursor, seek }: { data: ChartData; cursor: number; seek: (index: number) => void }) {
  const table = usePrices((s) => s.table);
  const costs = useMemo(() => data.calls.map((c) => callCost(c, priceFor(table, c.provider, c.model))), [data, table]);
  const cumulative = useMemo(() => { let sum = 0; return costs.map((c) => (sum += c ?? 0)); }, [costs]);
  // A call that reported no usage has nothing to price; one that did, with no price for its model, says so.
  const unpriced = useMemo(() => [...new Set(data.calls.filter((c, i) => costs[i] === null && hasUsage(c)).map((c) => (c.model ? `${c.provider ? `${c.provider}/` : ''}${c.model}` : '(no model)')))], [data, costs]);
  const priced = useMemo(() => costs.filter((c) => c !== null).length, [costs]);
  // A long session's calls are drawn as each bin's dearest (aligned.ts `drawnCalls`).
  const drawn = useMemo(() => drawnCalls(costs.length, (i) => costs[i] ?? undefined), [costs]);
  const options = useMemo(() => {
    const muted = cssVar('--muted', '#6a7280');
    return {
      height: 180,
      scales: { x: { time: false }, total: {} },
      cursor: { drag: { x: false, y: false } },
      series: [
        { label: 'call', value: (_u: uPlot, v: number | null) => (v === null ? '–' : `#${v}`) },
        { label: 'this call', stroke: '#2e9e5b', fill: '#2e9e5bcc', paths: uPlot.paths.bars!({ size: [0.85, 48] }), points: { show: false }, value: (_u: uPlot, v: number | null) => (v === null ? 'no price' : usd(v)) },
        { label: 'so far', scale: 'total', stroke: '#8e44ad', width: 1.5, points: { show: false }, value: (_u: uPlot, v: number | null) => usd(v) },
      ],
      axes: [
        { stroke: muted, incrs: CALL_STEPS },
        { stroke: muted, size: 64, values: (_u: uPlot, splits: number[]) => splits.map((v) => usd(v)) },
        { stroke: muted, side: 1, scale: 'total', size: 64, grid: { show: false }, values: (_u: uPlot, splits: number[]) => splits.map((v) => usd(v)) },
      ],
      hooks: { ready: [(u: uPlot) => u.over.addEventListener('click', () => { const i = u.cursor.idx; const call = i === null || i === undefined ? undefined : data.calls[drawn[i]]; if (call) seek(call.index); })] },
    } satisfies Omit<uPlot.Options, 'width'>;
  // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data, drawn]);
  const aligned = useMemo(() => [drawn.map((k) => data.calls[k].call + 1), drawn.map((k) => costs[k]), drawn.map((k) => cumulative[k])] as uPlot.AlignedData, [data, drawn, costs, cumulative]);
  const at = callAtIndex(data.calls, cursor);
  return (
    <figure className="chart" aria-label="Cost">
      <h3>Cost</h3>
      {data.calls.length > 0 && priced > 0 && <UplotChart options={options} data={aligned} cursorX={at >= 0 ? at + 1 : null} label="Cost" />}
      <figcaption>
        {data.calls.length === 0 ? 'No model calls in this log.' : <>
          <strong>{usd(cumulative.at(-1) ?? 0)}</strong> in all for the {priced} of {data.calls.length} calls with a price{at >= 0 ? <>; {usd(cumulative[at])} up to the cursor (call {at + 1}: {costs[at] !== null ? usd(costs[at]) : hasUsage(data.calls[at]) ? 'no price' : 'no usage logged'})</> : ''}.
          {unpriced.length > 0 && <> No price for {unpriced.join(', ')}: add one below.</>}
          {' '}An estimate from the usage each call logged and the price table; nothing is sent anywhere.
        </>}
      </figcaption>
      <PriceTable />
    </figure>
  );
}

const FIELDS = [['cacheMiss', 'input (cache miss)'], ['cacheHit', 'cache hit'], ['cacheWrite', 'cache write'], ['output', 'output']] as const;

/** The price table, editable; kept in this browser. */
function PriceTable() {
  const { table, edited, edit, add, remove, reset } = usePrices();
  const [model, setModel] = useState('');
  return (
    <details className="price-table scroll-x">
      <summary>Price table (USD per 1M tokens{edited ? ', edited here' : ''})</summary>
      <table className="grid-table" aria-label="Price table">
        <thead><tr><th>model</th><th>provider</th>{FIELDS.map(([k, label]) => <th key={k}>{label}</th>)}<th>source</th><th /></tr></thead>
        <tbody>
          {table.map((p: ModelPrice, i) => (
            <tr key={i}>
              <td><input aria-label={`model of row ${i + 1}`} value={p.model} onChange={(e) => edit(i, { model: e.target.value })} /></td>
              <td><input aria-label={`provider of ${p.model}`} placeholder="any" value={p.provider ?? ''} onChange={(e) => edit(i, { provider: e.target.value || undefined })} /></td>
              {FIELDS.map(([k, label]) => (
                <td key={k}><input type="number" min={0} step="any" aria-label={`${label} price of ${p.model}`} placeholder={k === 'cacheWrite' ? 'as miss' : undefined}
                  value={p[k] ?? ''} onChange={(e) => { const v = e.target.value === '' ? undefined : Number(e.target.value); if (v === undefined ? k === 'cacheWrite' : Number.isFinite(v) && v >= 0) edit(i, { [k]: v }); }} /></td>
              ))}
              <td className="muted" title={p.note}>{p.checked === 'edited' ? 'edited here' : `${p.source}, read ${p.checked}`}</td>
              <td><button className="link" aria-label={`remove ${p.model}`} onClick={() => remove(i)}>✕</button></td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="panel-toolbar" onSubmit={(e) => { e.preventDefault(); if (model.trim()) { add(model.trim()); setModel(''); } }}>
        <input aria-label="New model" placeholder="model name, e.g. deepseek-v4-flash" value={model} onChange={(e) => setModel(e.target.value)} />
        <button type="submit">Add</button>
        {edited && <button type="button" onClick={reset}>Reset to the shipped prices</button>}
      </form>
    </details>
  );
}
