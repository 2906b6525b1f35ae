/** Index of the event with `seq` in the (sorted) seq column, or the nearest following one. */
export function indexOfSeq(seqs: ArrayLike<number>, seq: number): number {
  // Kept inline: its probe order is the answer on a column that goes back and for NaN (SeqTable matches it); the helpers probe otherwise.
  let lo = 0;
  let hi = seqs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (seqs[mid] < seq) lo = mid + 1;
    else if (seqs[mid] > seq) hi = mid - 1;
    else return mid;
  }
  return Math.max(0, Math.min(lo, seqs.length - 1));
}
