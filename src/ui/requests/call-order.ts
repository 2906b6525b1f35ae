import { filterFns, sortingFns, type ColumnDef, type Row, type SortingFn } from '@tanstack/react-table';

/**
 * The Requests table's order — the calls the text filter keeps, sorted by
 * the chosen column — made the way @tanstack/react-table's filtered and
 * sorted row models make it (the same filter and sorting functions, the same
 * comparator, ties in log order), but over the calls' values alone. The
 * table's row models build a Row with every feature's methods for each of a
 * long session's 27,542 calls: the first open of the tab took 640-820 ms on
 * the page's thread. The table now makes rows only for the calls
 * in view. test/ui/call-order.test.ts holds this to the row models' own order.
 */
export interface OrderQuery {
  sort: { id: string; desc: boolean } | null;
  /** The text filter, trimmed ('' : none). */
  filter: string;
  /** Columns the filter reads (hidden ones too, as the table's global filter does). */
  filtered: ReadonlySet<string>;
}

type Def<T> = ColumnDef<T, unknown> & { id?: string; accessorKey?: string; accessorFn?: (row: T, index: number) => unknown; sortingFn?: unknown; sortUndefined?: unknown; invertSorting?: boolean };

const idOf = <T>(d: Def<T>): string | undefined => d.id ?? d.accessorKey;
const accessorOf = <T>(d: Def<T>): ((row: T, index: number) => unknown) | undefined =>
  d.accessorFn ?? (d.accessorKey !== undefined ? (row: T) => (row as Record<string, unknown>)[d.accessorKey!] : undefined);

/** Just what the table's filter and sorting functions read of a row: its place, its call, a column's value (made once). */
class ValueRow<T> {
  private readonly values = new Map<string, unknown>();
  constructor(readonly index: number, readonly original: T, private readonly accessors: ReadonlyMap<string, (row: T, index: number) => unknown>) {}
  getValue(id: string): unknown {
    if (!this.values.has(id)) this.values.set(id, this.accessors.get(id)?.(this.original, this.index));
    return this.values.get(id);
  }
}

export function callOrder<T>(rows: readonly T[], columns: readonly ColumnDef<T, any>[], q: OrderQuery): Int32Array {
  const defs = columns as Def<T>[];
  const accessors = new Map<string, (row: T, index: number) => unknown>();
  for (const d of defs) { const id = idOf(d); const a = accessorOf(d); if (id && a) accessors.set(id, a); }
  const sortDef = q.sort ? defs.find((d) => idOf(d) === q.sort!.id && accessors.has(q.sort!.id)) : undefined;
  // No filter, no sort: log order, without reading a value.
  if (!sortDef && !q.filter) return Int32Array.from({ length: rows.length }, (_, i) => i);
  const all = rows.map((r, i) => new ValueRow(i, r, accessors));
  // The global filter: a call is kept when one of the filtered columns holds the text (includesString, any case).
  const filterIds = q.filter ? [...accessors.keys()].filter((id) => q.filtered.has(id)) : [];
  const kept = filterIds.length ? all.filter((r) => filterIds.some((id) => filterFns.includesString(r as unknown as Row<T>, id, q.filter, () => {}))) : all;
  if (!sortDef || !kept.length) return Int32Array.from(kept, (r) => r.index);
  const id = q.sort!.id;
  const sortingFn = sortingFnOf(sortDef, id, kept);
  // A column that says nothing sorts undefined values as the table's default does (sortUndefined 1).
  const sortUndefined = (sortDef.sortUndefined ?? 1) as 'first' | 'last' | false | -1 | 1;
  const desc = q.sort!.desc;
  // The row models' comparator, step for step (undefined values first or last whatever the direction).
  const sorted = kept.slice().sort((a, b) => {
    let sortInt = 0;
    if (sortUndefined) {
      const aUndefined = a.getValue(id) === undefined;
      const bUndefined = b.getValue(id) === undefined;
      if (aUndefined || bUndefined) {
        if (sortUndefined === 'first') return aUndefined ? -1 : 1;
        if (sortUndefined === 'last') return aUndefined ? 1 : -1;
        sortInt = aUndefined && bUndefined ? 0 : aUndefined ? sortUndefined : -sortUndefined;
      }
    }
    if (sortInt === 0) sortInt = sortingFn(a as unknown as Row<T>, b as unknown as Row<T>, id);
    if (sortInt !== 0) {
      if (desc) sortInt *= -1;
      if (sortDef.invertSorting) sortInt *= -1;
      return sortInt;
    }
    return a.index - b.index;
  });
  return Int32Array.from(sorted, (r) => r.index);
}

/** The column's sorting function; 'auto' chosen from the values as the table chooses it (it reads the kept rows from the 11th on). */
function sortingFnOf<T>(d: Def<T>, id: string, kept: ValueRow<T>[]): SortingFn<T> {
  const named = d.sortingFn ?? 'auto';
  if (typeof named === 'function') return named as SortingFn<T>;
  if (named !== 'auto') return sortingFns[named as keyof typeof sortingFns] as SortingFn<T>;
  let isString = false;
  for (const row of kept.slice(10)) {
    const value = row.getValue(id);
    if (Object.prototype.toString.call(value) === '[object Date]') return sortingFns.datetime as SortingFn<T>;
    if (typeof value === 'string') {
      isString = true;
      if (value.split(/([0-9]+)/gm).length > 1) return sortingFns.alphanumeric as SortingFn<T>;
    }
  }
  return (isString ? sortingFns.text : sortingFns.basic) as SortingFn<T>;
}
