/**
 * A Fenwick (binary indexed) tree of non-negative numbers over positions
 * 0…n−1 that only grow at the end: point updates, prefix sums and "the
 * position of the k-th unit" in O(log n). The surface ledger keeps node
 * counts, message counts and message bytes in these, so a question about
 * "everything before position p" never walks the surface.
 */
export class Fenwick {
  /** 1-based tree; tree[i] holds the sum of (i − lowbit(i), i]. */
  private tree: Float64Array;
  private n = 0;

  constructor(capacity = 1024) {
    this.tree = new Float64Array(Math.max(16, capacity) + 1);
  }

  get size(): number {
    return this.n;
  }

  /** Adds a position at the end holding `value`. */
  push(value: number): void {
    if (this.n + 1 >= this.tree.length) this.grow();
    const i = ++this.n;
    // tree[i] covers (i − lowbit(i), i]: the sum of the children below i, plus the new value.
    let sum = value;
    const low = i & -i;
    for (let j = i - 1; j > i - low; j -= j & -j) sum += this.tree[j];
    this.tree[i] = sum;
  }

  add(position: number, delta: number): void {
    for (let i = position + 1; i <= this.n; i += i & -i) this.tree[i] += delta;
  }

  /** Sum of positions 0…end−1. */
  prefix(end: number): number {
    let sum = 0;
    for (let i = Math.min(end, this.n); i > 0; i -= i & -i) sum += this.tree[i];
    return sum;
  }

  total(): number {
    return this.prefix(this.n);
  }

  /**
   * The smallest position p with prefix(p + 1) ≥ k (k ≥ 1): the position of
   * the k-th unit when every position holds 0 or 1. −1 when the total is below k.
   */
  findKth(k: number): number {
    let pos = 0;
    let rest = k;
    let step = 1;
    while (step * 2 <= this.n) step *= 2;
    for (; step > 0; step >>= 1) {
      const next = pos + step;
      if (next <= this.n && this.tree[next] < rest) {
        pos = next;
        rest -= this.tree[next];
      }
    }
    return pos < this.n ? pos : -1;
  }

  /** Empties the tree and lets go of its memory. */
  clear(): void {
    this.tree = new Float64Array(17);
    this.n = 0;
  }

  private grow(): void {
    // A tree's cells depend only on their index: the larger tree keeps every cell as it is.
    const next = new Float64Array(this.tree.length * 2);
    next.set(this.tree);
    this.tree = next;
  }
}
