import { create } from 'zustand';
import { DEFAULT_PRICES, parsePriceTable, type ModelPrice } from '../../core/charts/prices.ts';

/** The user's price table, kept in this browser's local storage (never sent anywhere). */
const KEY = 'dsh-devtools.prices';

function stored(): ModelPrice[] | null {
  try { return parsePriceTable(globalThis.localStorage?.getItem(KEY) ?? null); } catch { return null; }
}

function keep(table: readonly ModelPrice[] | null): void {
  try {
    if (table) globalThis.localStorage?.setItem(KEY, JSON.stringify(table));
    else globalThis.localStorage?.removeItem(KEY);
  } catch { /* storage off (private mode): the edits last for this page */ }
}

export interface PriceStore {
  table: readonly ModelPrice[];
  /** The table was edited here (else it is the one the app ships). */
  edited: boolean;
  /** Sets one field of a row (the row becomes the user's own price). */
  edit(row: number, change: Partial<Pick<ModelPrice, 'provider' | 'model' | 'cacheMiss' | 'cacheHit' | 'cacheWrite' | 'output'>>): void;
  add(model: string): void;
  remove(row: number): void;
  reset(): void;
}

export const usePrices = create<PriceStore>((set, get) => {
  const save = (table: ModelPrice[]) => { keep(table); set({ table, edited: true }); };
  const mine = stored();
  return {
    table: mine ?? DEFAULT_PRICES,
    edited: mine !== null,
    edit: (row, change) => save(get().table.map((e, i) => (i === row ? { ...e, ...change, source: 'edited in this browser', checked: 'edited' } : e))),
    add: (model) => save([...get().table, { model, cacheMiss: 0, cacheHit: 0, output: 0, source: 'edited in this browser', checked: 'edited' }]),
    remove: (row) => save(get().table.filter((_e, i) => i !== row)),
    reset: () => { keep(null); set({ table: DEFAULT_PRICES, edited: false }); },
  };
});
