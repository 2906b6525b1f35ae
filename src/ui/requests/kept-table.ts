import { createTable, type RowData, type Table, type TableOptions, type TableState, type Updater } from '@tanstack/react-table';
import { useReducer } from 'react';

interface Kept { table: Table<any>; state: TableState }
const kept = new WeakMap<object, Kept>();

/**
 * useReactTable, except that the table (and the row models it has made) is
 * kept with `owner` rather than with the component: the Requests panel
 * unmounts whenever another side tab is chosen, and making the row model of
 * a long session's calls again took 420-490 ms at every return to the tab
 * (27,542 calls; issue #15). Options are applied at each render, as
 * useReactTable does; row models are made again only when what they depend
 * on (the data array, the columns, the state) changes.
 */
export function useKeptTable<T extends RowData>(owner: object, options: Omit<TableOptions<T>, 'state' | 'onStateChange' | 'renderFallbackValue'> & { state: Partial<TableState> }): Table<T> {
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  let entry = kept.get(owner);
  if (!entry) {
    const table = createTable<T>({ ...options, state: {}, onStateChange: () => {}, renderFallbackValue: null });
    entry = { table, state: table.initialState };
    kept.set(owner, entry);
  }
  const e = entry;
  e.table.setOptions((prev) => ({
    ...prev,
    ...options,
    state: { ...e.state, ...options.state },
    onStateChange: (u: Updater<TableState>) => {
      e.state = typeof u === 'function' ? u(e.state) : u;
      redraw();
    },
  }));
  return e.table as Table<T>;
}

const copies = new WeakMap<object, { key: unknown; data: unknown[] }>();

/** A copy of `rows` made once per `key` (a new key: a new copy, so the table reads its cells again), kept with `rows`. */
export function keptCopy<T>(rows: readonly T[], key: unknown): T[] {
  const c = copies.get(rows);
  if (c && c.key === key) return c.data as T[];
  const data = rows.slice();
  copies.set(rows, { key, data });
  return data;
}

const made = new WeakMap<object, unknown>();
const NONE = {};

/** `make(key)` once per key object (null: one shared value): table options that stay the same objects while what they derive from does, across mounts. */
export function keptFor<K extends object | null, V>(key: K, make: (key: K) => V): V {
  const k = key ?? NONE;
  if (made.has(k)) return made.get(k) as V;
  const v = make(key);
  made.set(k, v);
  return v;
}
