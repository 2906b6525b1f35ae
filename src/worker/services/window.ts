import type { ListWindow } from '../protocol.ts';

/** The most rows one panel query may ask for (a screen is a few dozen). */
export const WINDOW_MAX = 2000;

/** A window clamped to a list of `length`. */
export function clampWindow(window: ListWindow, length: number, max = WINDOW_MAX): ListWindow {
  const from = Math.max(0, Math.min(Math.floor(window.from), length));
  return { from, count: Math.max(0, Math.min(Math.floor(window.count), length - from, max)) };
}
