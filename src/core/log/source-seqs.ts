/**
 * Range-encoded `sourceEventSeqs` (dsh-log-rules L1.6b): a list may mix seqs and
 * inclusive `[start, end]` pairs; pairs expand in place. rc.8 never writes
 * pairs, so decoding is harmless for every version.
 */
const isSeq = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0 && !Object.is(v, -0);

export function decodeSourceEventSeqs(value: unknown, ownSeq: number): number[] | string {
  if (!Array.isArray(value)) return 'sourceEventSeqs must be an array';
  // A list without pairs (every rc.8 one) is its own decoding: kept as parsed, not copied.
  if (!value.some(Array.isArray)) return value as number[];
  let hasPair = false;
  const out: number[] = [];
  for (const item of value) {
    if (Array.isArray(item)) {
      hasPair = true;
      if (item.length !== 2 || !isSeq(item[0]) || !isSeq(item[1]) || item[0] > item[1]) {
        return 'a range pair must be exactly [start, end] seqs with start ≤ end';
      }
      if (out.length + (item[1] - item[0] + 1) > ownSeq) return 'the decoded list is longer than the event seq';
      for (let s = item[0]; s <= item[1]; s++) out.push(s);
    } else {
      out.push(item as number);
    }
  }
  if (hasPair) {
    for (let i = 1; i < out.length; i++) {
      if (!(out[i] > out[i - 1])) return 'a list with ranges must decode to strictly increasing seqs';
    }
  }
  // Member validity (seqs, uniqueness, earlier than the event) is a surface
  // rule checked by the fold (L4.3), where DSH checks it.
  return out;
}
