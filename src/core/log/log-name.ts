/** A log's file name without its `.jsonl` (and compression) ending: what a file made from it is named after. */
export function logStem(name: string): string {
  const ext = name.search(/\.jsonl(\.[a-z0-9]+)?$/i);
  return ext > 0 ? name.slice(0, ext) : name;
}
