/**
 * Where each side's cursor stands on an aligned row (docs/compare.md): on the
 * surface its call was made from — the state after the event before the
 * cut (dsh-log-rules P8: a call's request is derived from the events
 * before its cut). A side with a gap on the row stands where its next call
 * would start (or at its last event): the two panels then show what each
 * run had at that point.
 */
export function rowCursors(
  rows: readonly { a: number | null; b: number | null }[],
  cutIndexA: (call: number) => number,
  cutIndexB: (call: number) => number,
  lastA: number,
  lastB: number,
): { a: Int32Array; b: Int32Array } {
  const a = new Int32Array(rows.length);
  const b = new Int32Array(rows.length);
  let nextA = lastA;
  let nextB = lastB;
  // Backwards, so a gap takes the position of the side's next call.
  for (let r = rows.length - 1; r >= 0; r--) {
    const row = rows[r];
    if (row.a !== null) nextA = Math.max(0, cutIndexA(row.a) - 1);
    if (row.b !== null) nextB = Math.max(0, cutIndexB(row.b) - 1);
    a[r] = nextA;
    b[r] = nextB;
  }
  return { a, b };
}
