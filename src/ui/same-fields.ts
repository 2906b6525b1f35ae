/**
 * Whether two plain objects hold the same values under the same keys (one
 * level, Object.is). For memo comparators run for every row on every step:
 * zustand's `shallow` makes two Maps of the objects' entries per call.
 */
export function sameFields(a: object, b: object): boolean {
  if (a === b) return true;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let keys = 0;
  for (const key in x) {
    if (!Object.is(x[key], y[key]) || !(key in y)) return false;
    keys++;
  }
  for (const _key in y) keys--;
  return keys === 0;
}
