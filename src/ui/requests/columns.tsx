import { createColumnHelper, type Row } from '@tanstack/react-table';
import type { RequestRow } from '../../worker/protocol.ts';
import { callCost, priceFor, type ModelPrice } from '../../core/charts/prices.ts';

const col = createColumnHelper<RequestRow>();
/** Numbers grouped as the page's locale writes them: one formatter (toLocaleString makes one per call). */
const grouped = new Intl.NumberFormat();
export const pct = (a: number, b: number) => (b ? `${Math.round((a / b) * 100)}%` : '-');

const PREFIX_HELP = 'prefix kept: how many of the previous call\'s messages this call sends again unchanged at its start (kept/previous count), and the share of this request\'s bytes they make up — the part a provider\'s prompt cache can reuse';
const prefixTitle = (r: RequestRow) =>
  `kept ${r.keptMessages} of the previous call's ${r.previousMessageCount} messages as this call's leading prefix; they are ${pct(r.keptBytes, r.bytes)} of this request's bytes (${grouped.format(r.keptBytes)} of ${grouped.format(r.bytes)})`;
const formatted = (n: number | null | undefined) => (n == null ? '' : grouped.format(n));
const prefixText = (r: RequestRow) => (r.index === 0 ? 'first' : `${r.keptMessages}/${r.previousMessageCount} msgs · ${pct(r.keptBytes, r.bytes)}`);
/** Calls are in log order, so the call index orders turn.step (and retries) without parsing the text. */
const byIndex = (a: Row<RequestRow>, b: Row<RequestRow>) => a.original.index - b.original.index;
/** The share of bytes kept orders the prefix column; the first call (nothing to keep) sorts lowest. */
const byKept = (a: Row<RequestRow>, b: Row<RequestRow>) => kept(a.original) - kept(b.original);
const kept = (r: RequestRow) => (r.index === 0 || !r.bytes ? -1 : r.keptBytes / r.bytes);

/**
 * The table's columns. Ids are letters only: hidden ones go in the link
 * (`rh`), which keeps nothing else. The text filter looks at the `FILTERED` ones.
 */
export const COLUMNS = [
  col.accessor('index', { header: '#', cell: (c) => c.getValue() + 1 }),
  col.accessor('cut', { header: 'cut' }),
  col.accessor((r) => `${r.turn}.${r.step}${r.attempt > 1 ? ` (try ${r.attempt})` : ''}`, { id: 'ts', header: 'turn.step', sortingFn: byIndex }),
  col.accessor('model', { header: 'model' }),
  col.accessor('messageCount', { header: 'msgs' }),
  col.accessor('toolCount', { header: 'tools' }),
  col.accessor(prefixText, {
    id: 'prefix',
    header: () => <span title={PREFIX_HELP}>prefix kept ⓘ</span>,
    cell: (c) => <span title={c.row.original.index === 0 ? 'the first call: nothing to keep' : prefixTitle(c.row.original)}>{c.getValue()}</span>,
    sortingFn: byKept,
  }),
  col.accessor('inputTokens', { id: 'input', header: 'input tokens', cell: (c) => formatted(c.getValue()), sortUndefined: 'last' }),
  col.accessor('cacheReadTokens', { id: 'cache', header: 'cache read', cell: (c) => formatted(c.getValue()), sortUndefined: 'last' }),
  col.accessor((r) => (r.extendsPrevious ? '' : r.reasons.join(', ')), { id: 'break', header: 'break reason' }),
  col.accessor((r) => r.outcome ?? '', { id: 'outcome', header: 'outcome' }),
];

/** A call's cost from the price table (null: no usage, or no price for its model). */
export function rowCost(r: RequestRow, prices: readonly ModelPrice[]): number | null {
  return callCost(r.tokens, priceFor(prices, r.tokens.provider, r.tokens.model));
}

/** The columns with the cost column priced from `prices` (the table is remade when the prices change). */
export function columnsFor(prices: readonly ModelPrice[]) {
  return [
    ...COLUMNS,
    col.accessor((r) => rowCost(r, prices) ?? undefined, {
      id: 'cost', header: 'cost', sortUndefined: 'last',
      cell: (c) => { const v = c.getValue(); return v === undefined ? <span className="muted" title="no usage logged, or no price for this model (Charts → Price table)">no price</span> : `$${v < 0.01 ? v.toFixed(5) : v.toFixed(4)}`; },
    }),
  ];
}

/** Plain names for the Columns menu (a header may be markup). */
export const LABELS: Record<string, string> = {
  index: '#', cut: 'cut', ts: 'turn.step', model: 'model', messageCount: 'msgs', toolCount: 'tools',
  prefix: 'prefix kept', input: 'input tokens', cache: 'cache read', break: 'break reason', outcome: 'outcome', cost: 'cost',
};
export const COLUMN_IDS = Object.keys(LABELS);

/** Columns the text filter matches against (hidden or not). */
export const FILTERED = new Set(['ts', 'model', 'break', 'outcome']);
