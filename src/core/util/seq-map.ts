import { grownSize } from './typed.ts';

/**
 * A map from event seq to a small non-negative integer. A log's seqs run
 * from 0 without gaps (a gap is a finding), so the values sit in a typed
 * array indexed by seq; a seq far past the ones seen so far (a broken log's
 * jump) moves the map to a hash map for good, so a jump never reserves
 * memory for the seqs it skipped. Walks of long sessions set one entry per
 * surface node: a hash map of every node's seq cost more than the rest of
 * the ledger's bookkeeping.
 */
export class SeqMap {
  /**
   * `projectedEnd`, when given, guesses how many seqs the log will hold from
   * a seq about to be set (a streaming load's store knows the bytes read):
   * the dense array then grows to that guess rather than doubling, leaving
   * fewer outgrown copies for the collector.
   */
  constructor(private readonly projectedEnd?: (seq: number) => number) {}

  /** value + 1 per seq (0: none), while dense. */
  private dense: Int32Array | null = new Int32Array(1024);
  private sparse: Map<number, number> | null = null;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Seqs the dense array holds room for (0 once it is a hash map). */
  get capacity(): number {
    return this.dense?.length ?? 0;
  }

  get(seq: number): number | undefined {
    if (this.dense) {
      const v = seq >= 0 && seq < this.dense.length && Number.isInteger(seq) ? this.dense[seq] : 0;
      return v === 0 ? undefined : v - 1;
    }
    return this.sparse!.get(seq);
  }

  has(seq: number): boolean {
    return this.get(seq) !== undefined;
  }

  set(seq: number, value: number): void {
    if (this.dense && !(Number.isInteger(seq) && seq >= 0 && this.fits(seq))) this.toSparse();
    if (this.dense) {
      if (this.dense[seq] === 0) this.count++;
      this.dense[seq] = value + 1;
      return;
    }
    if (!this.sparse!.has(seq)) this.count++;
    this.sparse!.set(seq, value);
  }

  delete(seq: number): void {
    if (this.dense) {
      if (seq >= 0 && seq < this.dense.length && Number.isInteger(seq) && this.dense[seq] !== 0) {
        this.dense[seq] = 0;
        this.count--;
      }
      return;
    }
    if (this.sparse!.delete(seq)) this.count--;
  }

  clear(): void {
    this.dense = new Int32Array(0);
    this.sparse = null;
    this.count = 0;
  }

  /** Grows the dense array to hold `seq` when that is no jump (at most twice the seqs held, plus a margin). */
  private fits(seq: number): boolean {
    const dense = this.dense!;
    if (seq < dense.length) return true;
    if (seq > dense.length * 2 + 65536 || seq >= 2 ** 30) return false;
    const next = new Int32Array(Math.max(seq + 1, grownSize(dense.length, this.projectedEnd?.(seq + 1) ?? 0)));
    next.set(dense);
    this.dense = next;
    return true;
  }

  private toSparse(): void {
    const dense = this.dense!;
    const sparse = new Map<number, number>();
    for (let seq = 0; seq < dense.length; seq++) if (dense[seq] !== 0) sparse.set(seq, dense[seq] - 1);
    this.sparse = sparse;
    this.dense = null;
  }
}
