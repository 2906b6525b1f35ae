/** "45 events + 1 synthetic": the file's events, then the ones a restore appends (counted apart, so counts agree everywhere). */
export function eventCountText(count: number, synthetic: number): string {
  const logged = count - synthetic;
  return `${logged.toLocaleString()} event${logged === 1 ? '' : 's'}${synthetic ? ` + ${synthetic.toLocaleString()} synthetic` : ''}`;
}
