import type { LoadSummary, RequestRow } from './protocol.ts';

/**
 * The Requests table's rows as they cross from the worker to the page: a
 * number grid, a string table and list offsets in typed arrays (transferred,
 * not cloned). A real-shaped 1M-event log has 27,542 calls; as objects they
 * were 12.6 MB of structured clone, read back on the page's thread at the end
 * of every load (180-190 ms in a fresh Node process). Packed, they cross at
 * once, and the page makes the rows only when something reads them
 * (summaryFromWire; making them costs about half the clone).
 */
export interface PackedRequestRows {
  packed: 'request-rows';
  count: number;
  /** NUMBERS figures per row, row after row; NaN: the optional figure is absent. */
  numbers: Float64Array;
  /** extendsPrevious, one byte per row. */
  extends: Uint8Array;
  /** Each distinct string once. */
  strings: string[];
  /** STRINGS ids into `strings` per row; -1: absent. */
  stringIds: Int32Array;
  /** Per row, for each of its LISTS lists: where its items start in `listItems` (one more entry at the end). */
  listStarts: Int32Array;
  listItems: Int32Array;
}

/**
 * Figures per row, in this order: index, cut, cutIndex, turn, step, attempt, messageCount, toolCount,
 * keptMessages, previousMessageCount, keptBytes, bytes; cacheReadTokens, inputTokens (optional); the
 * tokens' call and index; their fresh, cacheRead, cacheWrite, output, prompt, contextWindow (optional).
 */
const NUMBERS = 22;
/** model, outcome, the tokens' provider and model. */
const STRINGS = 4;
/** reasons, the tokens' breakReasons. */
const LISTS = 2;

export function packRequestRows(rows: readonly RequestRow[]): PackedRequestRows {
  const count = rows.length;
  const n = new Float64Array(count * NUMBERS);
  const extendsPrevious = new Uint8Array(count);
  const stringIds = new Int32Array(count * STRINGS);
  const listStarts = new Int32Array(count * LISTS + 1);
  const items: number[] = [];
  const strings: string[] = [];
  const ids = new Map<string, number>();
  const id = (s: string | undefined): number => {
    if (s === undefined) return -1;
    let k = ids.get(s);
    if (k === undefined) { k = strings.length; strings.push(s); ids.set(s, k); }
    return k;
  };
  const figure = (v: number | undefined) => (v === undefined ? NaN : v);
  const listAt = (slot: number, list: readonly string[]) => {
    listStarts[slot] = items.length;
    for (let k = 0; k < list.length; k++) items.push(id(list[k]));
  };
  // Field by field in NUMBERS' order (unpackRequestRows reads the same places).
  for (let r = 0, a = 0; r < count; r++, a += NUMBERS) {
    const row = rows[r];
    const t = row.tokens;
    n[a] = row.index; n[a + 1] = row.cut; n[a + 2] = row.cutIndex; n[a + 3] = row.turn; n[a + 4] = row.step; n[a + 5] = row.attempt;
    n[a + 6] = row.messageCount; n[a + 7] = row.toolCount; n[a + 8] = row.keptMessages; n[a + 9] = row.previousMessageCount; n[a + 10] = row.keptBytes; n[a + 11] = row.bytes;
    n[a + 12] = figure(row.cacheReadTokens); n[a + 13] = figure(row.inputTokens);
    n[a + 14] = t.call; n[a + 15] = t.index;
    n[a + 16] = figure(t.fresh); n[a + 17] = figure(t.cacheRead); n[a + 18] = figure(t.cacheWrite); n[a + 19] = figure(t.output); n[a + 20] = figure(t.prompt); n[a + 21] = figure(t.contextWindow);
    extendsPrevious[r] = row.extendsPrevious ? 1 : 0;
    const s = r * STRINGS;
    stringIds[s] = id(row.model); stringIds[s + 1] = id(row.outcome); stringIds[s + 2] = id(t.provider); stringIds[s + 3] = id(t.model);
    listAt(r * LISTS, row.reasons);
    listAt(r * LISTS + 1, t.breakReasons);
  }
  listStarts[count * LISTS] = items.length;
  return { packed: 'request-rows', count, numbers: n, extends: extendsPrevious, strings, stringIds, listStarts, listItems: new Int32Array(items) };
}

export function unpackRequestRows(p: PackedRequestRows): RequestRow[] {
  const { numbers: n, strings, stringIds, listStarts, listItems } = p;
  const text = (k: number): string | undefined => (k < 0 ? undefined : strings[k]);
  const figure = (v: number): number | undefined => (Number.isNaN(v) ? undefined : v);
  // Most calls extend the previous one: their empty lists are one shared, frozen array.
  const list = (slot: number): string[] => {
    if (listStarts[slot] === listStarts[slot + 1]) return NO_REASONS as string[];
    const out: string[] = [];
    for (let k = listStarts[slot]; k < listStarts[slot + 1]; k++) out.push(strings[listItems[k]]);
    return out;
  };
  const rows: RequestRow[] = new Array(p.count);
  // Object literals in one field order (one shape for every row; an absent figure is undefined, as an
  // object made by the engine may hold it): rows built field by field from the name lists took as long as
  // the structured clone they replace. The places are NUMBERS', as packRequestRows writes them.
  for (let r = 0, a = 0; r < p.count; r++, a += NUMBERS) {
    const s = r * STRINGS;
    rows[r] = {
      index: n[a], cut: n[a + 1], cutIndex: n[a + 2], turn: n[a + 3], step: n[a + 4], attempt: n[a + 5],
      model: text(stringIds[s])!,
      messageCount: n[a + 6], toolCount: n[a + 7], keptMessages: n[a + 8], previousMessageCount: n[a + 9], keptBytes: n[a + 10], bytes: n[a + 11],
      extendsPrevious: p.extends[r] === 1,
      reasons: list(r * LISTS),
      cacheReadTokens: figure(n[a + 12]), inputTokens: figure(n[a + 13]),
      outcome: text(stringIds[s + 1]),
      tokens: {
        call: n[a + 14], index: n[a + 15],
        fresh: figure(n[a + 16]), cacheRead: figure(n[a + 17]), cacheWrite: figure(n[a + 18]), output: figure(n[a + 19]), prompt: figure(n[a + 20]), contextWindow: figure(n[a + 21]),
        breakReasons: list(r * LISTS + 1),
        provider: text(stringIds[s + 2]), model: text(stringIds[s + 3]),
      },
    };
  }
  return rows;
}

const NO_REASONS: readonly string[] = Object.freeze([]);

/** A summary as the worker posts it: its requests packed. */
export type WireSummary = Omit<LoadSummary, 'requests'> & { requests: PackedRequestRows };

/** The summary to post, and the buffers to transfer with it (its columns' and its packed rows'). */
export function summaryToWire(summary: LoadSummary): { wire: WireSummary; transfer: ArrayBuffer[] } {
  const requests = packRequestRows(summary.requests);
  const transfer = [...Object.values(summary.columns), summary.callCuts, requests.numbers, requests.extends, requests.stringIds, requests.listStarts, requests.listItems]
    .map((a) => a.buffer as ArrayBuffer);
  return { wire: { ...summary, requests }, transfer: [...new Set(transfer)] };
}

/**
 * The summary the page keeps; a summary that was never packed (an in-process engine) passes as it is.
 * Its rows are made when first read (the Requests table, compare): until then the page finds calls by
 * `callCuts`, so opening a log does not pay for 27,542 rows nobody has looked at.
 */
export function summaryFromWire(summary: WireSummary | LoadSummary): LoadSummary {
  const packed = summary.requests as PackedRequestRows | RequestRow[];
  if (Array.isArray(packed)) return summary as LoadSummary;
  const out = { ...summary } as unknown as LoadSummary;
  let rows: RequestRow[] | null = null;
  Object.defineProperty(out, 'requests', { enumerable: true, get: () => (rows ??= unpackRequestRows(packed)) });
  return out;
}
