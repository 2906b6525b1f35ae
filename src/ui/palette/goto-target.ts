import { indexOfSeq } from '../../core/replay/seq-index.ts';
import type { LoadSummary } from '../../worker/protocol.ts';
import { axisIndexOf } from '../timeline/axis-index.ts';

/** The event index of a typed seq, or why there is none (not a number, out of range, a gap in the log). */
export function checkSeq(text: string, seqs: ArrayLike<number>, count: number): number | string {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return `“${trimmed}” is not a seq (a whole number)`;
  const seq = Number(trimmed);
  if (count === 0) return 'the log has no events';
  const first = seqs[0];
  const last = seqs[count - 1];
  if (!Number.isSafeInteger(seq) || seq < first || seq > last) return `seq ${trimmed} is out of range: this log has seqs ${first}–${last}`;
  const index = indexOfSeq(seqs, seq);
  if (seqs[index] !== seq) return `there is no event with seq ${seq} (the log skips from ${seqs[index - 1]} to ${seqs[index]})`;
  return index;
}

/** `[seq|call|turn] N` (or s/c/t, an optional #): the kind, then what follows it. */
const GOTO_FORM = /^\s*(seq|s|call|c|turn|t)?\s*#?\s*(\S*)\s*$/i;

/** Whether text is a go-to in full (a kind, if any, and a number): the palette offers it as a row. */
export function isGotoText(text: string): boolean {
  return /^\d+$/.test(GOTO_FORM.exec(text)?.[2] ?? '');
}

/**
 * The go-to box's text as an event index: `120` (or `seq 120`) a seq,
 * `call 12` a model call (numbered from 1, as the Requests view does: its
 * cut), `turn 3` the first event of that turn. Or why there is none.
 */
export function gotoTarget(text: string, summary: LoadSummary): number | string {
  const m = GOTO_FORM.exec(text);
  const kind = (m?.[1] ?? 'seq').toLowerCase();
  const value = m?.[2] ?? text.trim();
  if (kind === 'seq' || kind === 's') return checkSeq(value, summary.columns.seq, summary.count);
  if (!/^\d{1,9}$/.test(value)) return `“${value}” is not a ${kind.startsWith('c') ? 'call' : 'turn'} number`;
  const n = Number(value);
  if (kind.startsWith('c')) {
    const calls = summary.callCuts.length;
    if (calls === 0) return 'this log has no model calls';
    if (n < 1 || n > calls) return `call ${n} is out of range: this log has calls 1–${calls}`;
    return summary.callCuts[n - 1];
  }
  const { turn } = summary.columns;
  if (summary.count > 0 && turn[0] === n) return 0;
  for (const i of axisIndexOf(summary).turnStarts) if (turn[i] === n) return i;
  return `there is no turn ${n} in this log`;
}
