/**
 * How many entries of an ascending array are ≤ `value` (the position just past the last of them).
 * `length`: only its first `length` entries count (a growable column's filled part, no subarray made).
 */
export function countAtOrBelow(sorted: ArrayLike<number>, value: number, length = sorted.length): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= value) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/** Where `value` is in an ascending array of distinct entries, or -1 when it is not there. */
export function positionOf(sorted: ArrayLike<number>, value: number): number {
  const k = countAtOrBelow(sorted, value) - 1;
  return k >= 0 && sorted[k] === value ? k : -1;
}

/** The first position in [0, n) where `reached` holds, given it holds from some position on (n when it never does). */
export function firstWhere(n: number, reached: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (reached(mid)) hi = mid; else lo = mid + 1;
  }
  return lo;
}
