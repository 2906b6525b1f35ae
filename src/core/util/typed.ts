/** The typed arrays the core grows while it reads (columns, line tables). */
export type GrowableArray = Float64Array | Uint32Array | Int32Array | Uint16Array | Uint8Array;

/** A copy of `a` in a new array of `size` elements (the rest zero): one growth step. */
export function grownTo<T extends GrowableArray>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a as never);
  return b;
}
