/** "45 events + 1 synthetic": the file's events, then the ones a restore appends (counted apart, so counts agree everywhere). */
export function eventCountText(count: number, synthetic: number): string {
  const logged = count - synthetic;
  return `${logged.toLocaleString()} event${logged === 1 ? '' : 's'}${synthetic ? ` + ${synthetic.toLocaleString()} synthetic` : ''}`;
}

/** A duration for a row: milliseconds under a second, else seconds to a tenth. */
export const formatMs = (ms: number): string => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);
