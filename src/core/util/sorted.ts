/** How many entries of an ascending array are ≤ `value` (the position just past the last of them). */
export function countAtOrBelow(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length;
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
