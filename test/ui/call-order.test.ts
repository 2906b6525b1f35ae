import { createTable, getCoreRowModel, getFilteredRowModel, getSortedRowModel, type ColumnDef, type TableState } from '@tanstack/react-table';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/generate/prng.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { DEFAULT_PRICES } from '../../src/core/charts/prices.ts';
import { callOrder } from '../../src/ui/requests/call-order.ts';
import { COLUMN_IDS, columnsFor, FILTERED } from '../../src/ui/requests/columns.tsx';
import { Engine } from '../../src/worker/engine.ts';
import type { RequestRow } from '../../src/worker/protocol.ts';

/** The order @tanstack/react-table's own filtered and sorted row models give (as the panel used them). */
function tableOrder(rows: RequestRow[], columns: ColumnDef<RequestRow, any>[], sort: { id: string; desc: boolean } | null, filter: string): number[] {
  const state = { sorting: sort ? [sort] : [], globalFilter: filter, columnVisibility: {} } as Partial<TableState>;
  const table = createTable<RequestRow>({
    data: rows, columns, state, onStateChange: () => {}, renderFallbackValue: null,
    getColumnCanGlobalFilter: (column) => FILTERED.has(column.id), sortDescFirst: false, enableMultiSort: false,
    getCoreRowModel: getCoreRowModel(), getSortedRowModel: getSortedRowModel(), getFilteredRowModel: getFilteredRowModel(),
  });
  table.setOptions((prev) => ({ ...prev, state: { ...table.initialState, ...state } }));
  return table.getRowModel().rows.map((r) => r.index);
}

/** Calls with every kind of value the columns read: absent figures, numbers in text, empty and repeated strings. */
function randomRows(seed: number, n: number): RequestRow[] {
  const rng = new Rng(seed);
  const pick = <V>(xs: V[]) => xs[rng.int(0, xs.length - 1)];
  let turn = 1;
  let step = 0;
  return Array.from({ length: n }, (_, index) => {
    if (rng.chance(0.2)) { turn++; step = 0; } else step++;
    const extendsPrevious = rng.chance(0.6);
    const bytes = rng.int(0, 5) ? rng.int(100, 50_000) : 0;
    const provider = pick(['deepseek', 'openai', undefined]);
    return {
      index, cut: index * 7 + rng.int(0, 5), cutIndex: index * 7, turn, step, attempt: rng.chance(0.1) ? 2 : 1,
      model: pick(['deepseek/deepseek-chat', 'openai/gpt-4o', '(no header)', 'a/b2c10', 'x/m2', 'x/m10', 'X/m9']),
      messageCount: rng.int(1, 300), toolCount: rng.int(0, 9), keptMessages: rng.int(0, 50), previousMessageCount: rng.int(0, 60),
      keptBytes: Math.min(bytes, rng.int(0, 40_000)), bytes, extendsPrevious,
      reasons: extendsPrevious ? [] : pick([['compaction'], ['replace', 'system-change'], ['unexplained'], ['tool-change']]),
      cacheReadTokens: rng.chance(0.3) ? undefined : rng.int(0, 9000), inputTokens: rng.chance(0.2) ? undefined : rng.int(0, 9000),
      outcome: pick([undefined, 'ok', 'error', 'cancelled', 'retry 2', 'retry 10', 'Retry 3']),
      tokens: { call: index, index: index * 7, breakReasons: [], ...(provider ? { provider, model: 'deepseek-chat', fresh: rng.int(0, 900), output: rng.int(0, 99), cacheRead: rng.int(0, 99) } : {}) },
    } as RequestRow;
  });
}

describe('the Requests table order without its row models (issue #15)', () => {
  const columns = columnsFor(DEFAULT_PRICES) as ColumnDef<RequestRow, any>[];
  const filters = ['', 'compaction', 'deepseek', '1.2', 'ERROR', '(try', 'no such text'];

  it('equals the order of the table\'s own filtered and sorted row models, every column, both ways, with and without a filter', () => {
    for (const [seed, n] of [[1, 9], [2, 40], [3, 400]] as const) {
      const rows = randomRows(seed, n);
      for (const filter of filters) {
        for (const sort of [null, ...COLUMN_IDS.flatMap((id) => [{ id, desc: false }, { id, desc: true }])]) {
          const expected = tableOrder(rows, columns, sort, filter);
          expect([...callOrder(rows, columns, { sort, filter, filtered: FILTERED })], `${n} rows, sort ${JSON.stringify(sort)}, filter "${filter}"`).toEqual(expected);
        }
      }
    }
  });

  it('on the calls of real loads', async () => {
    for (const dialect of ['v0', 'v4'] as const) {
      const { requests } = await new Engine().load({ kind: 'text', text: generateLog({ dialect, seed: 9, turns: 8, compactEvery: 3 }).text, name: 't' }, () => {});
      expect(requests.length).toBeGreaterThan(10);
      for (const filter of ['', 'compaction', requests[3].model.slice(0, 4)]) {
        for (const sort of [null, ...COLUMN_IDS.flatMap((id) => [{ id, desc: false }, { id, desc: true }])]) {
          expect([...callOrder(requests, columns, { sort, filter, filtered: FILTERED })], `${dialect} ${JSON.stringify(sort)} "${filter}"`).toEqual(tableOrder(requests, columns, sort, filter));
        }
      }
    }
  });
});
