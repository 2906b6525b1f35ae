/**
 * Deep-freezes history the core hands out (derived messages, folded states)
 * so no consumer can mutate it — the tldraw devFreeze habit.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Object.keys(value as object)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}
