import type { Edit } from '../../core/whatif/edits.ts';

/** Whether two edit lists are the same edits in the same order (the re-fold shown is of the list as it stands). */
export function sameEdits(a: readonly Edit[], b: readonly Edit[]): boolean {
  return a.length === b.length && a.every((e, i) => JSON.stringify(e) === JSON.stringify(b[i]));
}
