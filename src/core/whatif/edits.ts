import { logStem } from '../log/log-name.ts';
/**
 * What-if edits (docs/whatif.md): changes to a log's events, by the seqs of
 * the log as it was read, stacked in order. The edited log is re-folded by the
 * same core and compared with the original.
 */
export type Edit =
  /** Leave the event out (a replace, a message, a tool result, a runtime-context change, a projection write). */
  | { kind: 'drop'; seq: number }
  /** Give a message or tool result this text (its text blocks become one). */
  | { kind: 'text'; seq: number; text: string }
  /** A user message appended to the surface just before the event at `before` (the log's end when past it). */
  | { kind: 'insert-user'; before: number; text: string }
  /** Leave out a replace and the compaction metering that announced it: the nodes it shadowed come back. */
  | { kind: 'undo-replace'; seq: number };

/** One line naming an edit, for the edit list and the CLI. */
export function describeEdit(edit: Edit): string {
  switch (edit.kind) {
    case 'drop': return `drop seq ${edit.seq}`;
    case 'text': return `new text for seq ${edit.seq} (${edit.text.length} chars)`;
    case 'insert-user': return `insert a user message before seq ${edit.before}`;
    case 'undo-replace': return `undo the replace at seq ${edit.seq}`;
  }
}

/** The edited log's file name: the original's, marked as a what-if (DSH allows no such note inside the log: docs/whatif.md). */
export function editedLogName(name: string): string {
  return `${logStem(name)}.whatif.jsonl`;
}
