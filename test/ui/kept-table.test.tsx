// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { getCoreRowModel, getSortedRowModel, type ColumnDef, type SortingState, type Table } from '@tanstack/react-table';
import { afterEach, describe, expect, it } from 'vitest';
import { keptCopy, keptFor, useKeptTable } from '../../src/ui/requests/kept-table.ts';

type Call = { index: number; bytes: number };
const columns: ColumnDef<Call>[] = [{ id: 'bytes', accessorKey: 'bytes' }];

/** A panel that shows the table's rows in its order and hands the table out. */
function Panel({ rows, sort, seen }: { rows: Call[]; sort: { id: string; desc: boolean } | null; seen: (t: Table<Call>) => void }) {
  const sorting: SortingState = keptFor(sort, (s) => (s ? [s] : []));
  const table = useKeptTable(rows, { data: keptCopy(rows, 'prices'), columns, state: { sorting }, getCoreRowModel: getCoreRowModel(), getSortedRowModel: getSortedRowModel() });
  seen(table);
  return <ol>{table.getRowModel().rows.map((r) => <li key={r.id}>{r.original.index}</li>)}</ol>;
}

const order = (c: HTMLElement) => [...c.querySelectorAll('li')].map((li) => Number(li.textContent));

describe('a table kept with its rows (the Requests tab of a long session)', () => {
  afterEach(cleanup);
  it('a panel mounted again finds the same table and row model; other rows get their own', () => {
    const rows: Call[] = Array.from({ length: 50 }, (_, index) => ({ index, bytes: (index * 37) % 50 }));
    const tables: Table<Call>[] = [];
    const first = render(<Panel rows={rows} sort={null} seen={(t) => tables.push(t)} />);
    expect(order(first.container)).toEqual(rows.map((r) => r.index));
    const model = tables[0].getCoreRowModel();
    first.unmount();
    const again = render(<Panel rows={rows} sort={null} seen={(t) => tables.push(t)} />);
    expect(tables.at(-1)).toBe(tables[0]);
    expect(tables.at(-1)!.getCoreRowModel()).toBe(model);
    expect(order(again.container)).toEqual(rows.map((r) => r.index));
    // The state the panel passes still applies to the kept table.
    const sort = { id: 'bytes', desc: true };
    again.rerender(<Panel rows={rows} sort={sort} seen={(t) => tables.push(t)} />);
    expect(order(again.container).map((i) => rows[i].bytes)).toEqual([...rows].map((r) => r.bytes).sort((a, b) => b - a));
    expect(tables.at(-1)!.getCoreRowModel()).toBe(model);
    // Another log's rows: another table.
    const other = rows.map((r) => ({ ...r }));
    again.rerender(<Panel rows={other} sort={sort} seen={(t) => tables.push(t)} />);
    expect(tables.at(-1)).not.toBe(tables[0]);
  });

  it('keeps one copy of the rows per key, and one derived value per key object', () => {
    const rows = [{ index: 0, bytes: 1 }];
    expect(keptCopy(rows, 'a')).toBe(keptCopy(rows, 'a'));
    expect(keptCopy(rows, 'b')).not.toBe(keptCopy(rows, 'a'));
    const key = { id: 'x', desc: false };
    expect(keptFor(key, (k) => [k])).toBe(keptFor(key, (k) => [k]));
    expect(keptFor(null, () => [])).toBe(keptFor(null, () => []));
  });
});
