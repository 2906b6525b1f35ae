/** The typed arrays the core grows while it reads (columns, line tables). */
export type GrowableArray = Float64Array | Uint32Array | Int32Array | Uint16Array | Uint8Array;

/**
 * The next size of an array of `n` that is full: straight to the projected
 * final count (with a margin, and at least a quarter more) when there is
 * one, else double.
 */
export function grownSize(n: number, projected: number): number {
  const target = Math.ceil(projected * 1.03);
  return target > n ? Math.max(target, Math.ceil(n * 1.25)) : n * 2;
}

/** A copy of `a` in a new array of `size` elements (the rest zero): one growth step. */
export function grownTo<T extends GrowableArray>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a as never);
  return b;
}
