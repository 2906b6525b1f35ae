/** The typed arrays the core grows while it reads (columns, line tables). */
export type GrowableArray = Float64Array | Uint32Array | Int32Array | Uint16Array | Uint8Array;

/**
 * The next size of an array of `n` that is full: the projected final count
 * (with a margin, and at least a quarter more) when there is one, else
 * double. A projection made early can overshoot (a session's first turns
 * hold more events per byte than its later ones), and an array that ends
 * far from full is copied to trim it: so one step grows at most 16×, and
 * the next projection, made from more of the log, lands closer. (At most
 * 4× made a long log's columns, first sized at 400 bytes an event, grow
 * twice: every array grown from counts in the load's peak until a full
 * collection, and the generated long 100k log's buffers peaked at 7.7 MB
 * against 6.6 MB, the generated 10 MB log's at 11.4 against 9.8, medians
 * of seven loads.)
 */
export function grownSize(n: number, projected: number): number {
  const target = Math.ceil(projected * 1.03);
  return target > n ? Math.min(16 * n, Math.max(target, Math.ceil(n * 1.25))) : n * 2;
}

/**
 * Whether an array of `capacity` holding `n` is kept as a view rather than
 * copied to its size. A copy allocates `n` more while the array it trims
 * stays counted until a full collection, which a small load never reaches;
 * a view keeps only the slack. Up to half of `n` is kept: a projection made
 * from a log's dense first turns ends a quarter over (the generated 10 MB
 * log: 207,695 for 165,131 events), and copying those nine columns put
 * 2.8 MB in its peak (outside the young generation, median of eight loads
 * of its zstd form: 19.6 → 18.2 MB). The columns take about 17 bytes an
 * event, so the slack kept is at most about 9 bytes an event.
 */
export function closeFit(capacity: number, n: number): boolean {
  return capacity - n <= Math.max(1024, n / 2);
}

/** A copy of `a` in a new array of `size` elements (the rest zero): one growth step. */
export function grownTo<T extends GrowableArray>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a as never);
  return b;
}
