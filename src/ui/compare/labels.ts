import type { CompareRow } from '../../core/compare/compare.ts';
import { KIND_TEXT } from '../../core/compare/report.ts';
import type { RequestRow } from '../../worker/protocol.ts';

/** A call as the compare view names it: number, turn.step, attempt. */
export function callLabel(call: number | null, requests: readonly RequestRow[] | undefined): string {
  if (call === null) return '';
  const r = requests?.[call];
  return r ? `#${call + 1} · ${r.turn}.${r.step}${r.attempt > 1 ? ` try ${r.attempt}` : ''}` : `#${call + 1}`;
}

/** What a row's status says in a few words. */
export function rowStatusText(row: CompareRow): string {
  switch (row.status) {
    case 'same': return row.inherited ? 'inherited' : 'same';
    case 'a-only': return 'only A';
    case 'b-only': return 'only B';
    case 'differs': return row.what === 'messages' ? `msg ${row.messageIndex}` : KIND_TEXT[row.what!];
  }
}
