import type { LoadSummary } from '../../worker/protocol.ts';
import { countAtOrBelow } from '../../core/util/sorted.ts';
import { grownTo } from '../../core/util/typed.ts';
import { GrownRowsCache } from '../grown-rows-cache.ts';

type Columns = LoadSummary['columns'];

/**
 * What the timeline draws, indexed once per log so that a redraw (a zoom
 * or pan) costs the pixels and the turns in view, not the events: on a
 * 1M-event log a wheel tick walked every event five times.
 * - where turns and steps begin (the bands and labels);
 * - which families occur in any range of events: each family a bit, ORed
 *   over blocks of 2, 4, 8… events, so a range is a few blocks;
 * - the synthetic events.
 */
export class AxisIndex {
  /** Indexes i ≥ 1 whose turn differs from event i - 1's. */
  readonly turnStarts: Uint32Array;
  /** Indexes i ≥ 1 whose step or turn differs from event i - 1's. */
  readonly stepStarts: Uint32Array;
  readonly synthetic: Uint32Array;
  /**
   * levels[k - 1][j]: the family bits of events j·2^k … (j+1)·2^k - 1 (level 0
   * is the family column itself). 16 bits: the replay index has 9 families.
   */
  private readonly levels: Uint16Array[] = [];

  /**
   * `prev`: the index of these columns' first `prev.count` rows (a loading or followed log's, whose rows
   * only grow): its lists and blocks are kept and only the rows after are read.
   */
  constructor(private readonly columns: Columns, readonly count: number, prev?: AxisIndex) {
    const { turn, step, family, synthetic } = columns;
    const from = prev?.count ?? 0;
    // One scratch list for the three (each at most the new rows long), copied out to its length: no
    // boxed number per entry, which made this a tenth of the page's work when a 1M-event log opened.
    const scratch = new Uint32Array(count - from);
    const starts = (at: (i: number) => boolean, first: number, kept?: Uint32Array): Uint32Array => {
      let n = 0;
      for (let i = Math.max(first, from); i < count; i++) if (at(i)) scratch[n++] = i;
      if (!kept?.length) return scratch.slice(0, n);
      const out = grownTo(kept, kept.length + n);
      out.set(scratch.subarray(0, n), kept.length);
      return out;
    };
    this.turnStarts = starts((i) => turn[i] !== turn[i - 1], 1, prev?.turnStarts);
    this.stepStarts = starts((i) => turn[i] !== turn[i - 1] || step[i] !== step[i - 1], 1, prev?.stepStarts);
    this.synthetic = starts((i) => synthetic[i] !== 0, 0, prev?.synthetic);
    // Level 1 from the family column, each next level from the one below (straight loops over typed arrays).
    // Block j of level k covers events below (j + 1)·2^k: those of the shorter log's blocks are unchanged.
    let size = count >> 1;
    for (let k = 0; size >= 1; k++, size >>= 1) {
      const level = new Uint16Array(size);
      const kept = prev?.levels[k];
      const start = kept ? Math.min(kept.length, size) : 0;
      if (kept) level.set(kept.subarray(0, start));
      if (k === 0) for (let j = start; j < size; j++) level[j] = (1 << family[2 * j]) | (1 << family[2 * j + 1]);
      else {
        const below = this.levels[k - 1];
        for (let j = start; j < size; j++) level[j] = below[2 * j] | below[2 * j + 1];
      }
      this.levels.push(level);
      if (size < 2) break;
    }
  }

  /** The family bits of events [a, b): whole aligned blocks, the largest that fit. */
  familiesIn(a: number, b: number): number {
    let mask = 0;
    const { family } = this.columns;
    while (a < b) {
      let k = 0;
      while (k < this.levels.length && a % (2 << k) === 0 && a + (2 << k) <= b) k++;
      mask |= k === 0 ? 1 << family[a] : this.levels[k - 1][a / (1 << k)];
      a += 1 << k;
    }
    return mask;
  }

  /** Calls `run(start, end)` for each stretch of [first, last) between the given starts, in order. */
  static runs(starts: Uint32Array, first: number, last: number, run: (start: number, end: number) => void): void {
    let s = first;
    for (let k = countAtOrBelow(starts, first); k < starts.length && starts[k] < last; k++) {
      run(s, starts[k]);
      s = starts[k];
    }
    if (s < last || first === last) run(s, last);
  }

  /** The entries of a sorted list in [first, last). */
  static within(list: Uint32Array, first: number, last: number, visit: (i: number) => void): void {
    // Entries are whole numbers: those below `first` are the ones at or below first - 1.
    for (let k = countAtOrBelow(list, first - 1); k < list.length && list[k] < last; k++) visit(list[k]);
  }
}

const byRows = new GrownRowsCache<AxisIndex>((summary, prev) => new AxisIndex(summary.columns, summary.count, prev));

/** The index of a summary's columns, made on first use; a loading or followed log's is extended with each report's rows. */
export function axisIndexOf(summary: LoadSummary): AxisIndex {
  return byRows.get(summary);
}
