/** One number formatter for the page's counts: `toLocaleString()` builds a new one on every call, and a step renders several. */
const COUNT = new Intl.NumberFormat();
export const formatCount = (n: number): string => COUNT.format(n);

/** "45 events + 1 synthetic": the file's events, then the ones a restore appends (counted apart, so counts agree everywhere). */
export function eventCountText(count: number, synthetic: number): string {
  const logged = count - synthetic;
  return `${formatCount(logged)} event${logged === 1 ? '' : 's'}${synthetic ? ` + ${formatCount(synthetic)} synthetic` : ''}`;
}

/**
 * A duration for a row: milliseconds under a second, seconds to a tenth under
 * a minute, then the two largest units ("3 min 20 s", "2 h 5 min", "24 d 12 h"):
 * a step of a long session can wait for hours, and "7502.0 s" reads as nothing.
 */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.floor(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`;
}
