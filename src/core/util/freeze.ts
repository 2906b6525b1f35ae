/**
 * Deep-freezes history the core hands out (derived messages, folded states)
 * so no consumer can mutate it — the tldraw devFreeze habit. On by default;
 * a hot path that has measured the cost may turn it off.
 */
let enabled = true;

export function setDeepFreeze(on: boolean): void {
  enabled = on;
}

export function deepFreeze<T>(value: T): T {
  if (!enabled || typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Object.keys(value as object)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}
