import { describe, expect, it } from 'vitest';
import { GrowingColumns } from '../../src/store/growing-columns.ts';
import type { ReplayColumns } from '../../src/core/replay/replay-index.ts';

/** `n` rows whose seqs start at `from` (other columns zero). */
function rows(from: number, n: number): ReplayColumns {
  const seq = Uint32Array.from({ length: n }, (_, i) => from + i);
  const u8 = () => new Uint8Array(n);
  return { seq, typeId: new Uint16Array(n), family: u8(), turn: new Uint16Array(n), step: new Uint16Array(n), time: new Float64Array(n), surfaceChange: u8(), requestCut: u8(), synthetic: u8() } as unknown as ReplayColumns;
}

describe('columns the page builds up from rows sent in pieces', () => {
  it('the last piece grows the arrays to fit exactly, and arrays with much room to spare are cut to the rows', () => {
    const growing = new GrowingColumns();
    growing.put(rows(0, 1000), 0, 1000);
    // More rows than expected: the last piece does not double the arrays.
    const all = growing.put(rows(1000, 1500), 1000, 0, true);
    expect(all.seq.buffer.byteLength).toBe(2500 * 4);
    expect([...all.seq.subarray(995, 1005)]).toEqual([995, 996, 997, 998, 999, 1000, 1001, 1002, 1003, 1004]);
    // Sized for 10,000 rows, only 1,200 came: cut to them; a close fit is left as it is.
    const loose = new GrowingColumns();
    loose.put(rows(0, 1200), 0, 10_000);
    const cut = loose.fitted();
    expect(cut.seq.buffer.byteLength).toBe(1200 * 4);
    expect([...cut.seq.subarray(1195)]).toEqual([1195, 1196, 1197, 1198, 1199]);
    const close = new GrowingColumns();
    close.put(rows(0, 600), 0, 1200);
    close.put(rows(600, 600), 600, 0, true);
    const kept = close.view().seq.buffer;
    expect(close.fitted().seq.buffer).toBe(kept);
  });
});
