/** Structural equality of JSON values (key order ignored), as DSH compares payloads. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  // Plain loops, no callback per level: the projection history compares every unit's state on every change.
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== bb[i] && !jsonEqual(a[i], bb[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  // for-in, not Object.keys: no key arrays made per level (JSON values have no inherited enumerable keys).
  let members = 0;
  for (const k in ao) {
    if (!Object.hasOwn(bo, k)) return false;
    // A unit's next state shares most members with its last: equal references need no call.
    const x = ao[k];
    const y = bo[k];
    if (x !== y && !jsonEqual(x, y)) return false;
    members++;
  }
  // Every key of a is in b: they are equal when b has no other.
  for (const _k in bo) if (--members < 0) return false;
  return members === 0;
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A seq: a non-negative safe integer, and never -0 (dsh-log-rules L0 notation). */
export const isSeq = (v: unknown): v is number =>
  Number.isSafeInteger(v) && (v as number) >= 0 && !Object.is(v, -0);

export const hasExactKeys = (o: Record<string, unknown>, keys: readonly string[]): boolean => {
  const own = Object.keys(o);
  return own.length === keys.length && keys.every((k) => Object.hasOwn(o, k));
};
