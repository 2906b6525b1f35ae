/** One number formatter for the page's counts: `toLocaleString()` builds a new one on every call, and a step renders several. */
const COUNT = new Intl.NumberFormat();
export const formatCount = (n: number): string => COUNT.format(n);

/** "45 events + 1 synthetic": the file's events, then the ones a restore appends (counted apart, so counts agree everywhere). */
export function eventCountText(count: number, synthetic: number): string {
  const logged = count - synthetic;
  return `${formatCount(logged)} event${logged === 1 ? '' : 's'}${synthetic ? ` + ${formatCount(synthetic)} synthetic` : ''}`;
}

/** A duration for a row: milliseconds under a second, else seconds to a tenth. */
export const formatMs = (ms: number): string => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);
