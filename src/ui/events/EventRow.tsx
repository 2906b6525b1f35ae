import { memo } from 'react';
import { useCursor } from '../../store/cursor.ts';
import type { LoadSummary, RowSummary } from '../../worker/protocol.ts';
import { formatMs } from '../counts.ts';
import { timeAt } from '../../core/replay/time-column.ts';

/** An event row's height (the list is virtual: every row is this tall). */
export const ROW_H = 22;
/** The ISO form of an epoch-ms time, or undefined past what a Date holds (a log's time is any safe integer). */
const isoOf = (t: number): string | undefined => {
  const date = new Date(t);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
};
/** hh:mm:ss.mmm of an epoch-ms time (UTC), compact enough for a column. */
const clock = (t: number) => (t > 0 ? isoOf(t)?.slice(11, 23) ?? String(t) : String(t));
const CHANGE_MARK = ['', '+', '⇄', '✎', '✗'];
const CHANGE_TITLE = ['', 'appended to the surface', 'replaced surface nodes', 'rewrote a message (projection)', 'rejected by the surface rules'];

/** One event's row; memoized on plain props, so a cursor step re-renders only the rows whose marks it changed. */
export const EventRow = memo(function EventRow({ summary, i, top, className, selected, current, inherited, r }: {
  summary: LoadSummary; i: number; top: number; className: string; selected: boolean; current: boolean; inherited: boolean; r: RowSummary | undefined;
}) {
  const seek = useCursor((s) => s.seek);
  const col = summary.columns;
  const change = col.surfaceChange[i];
  const time = timeAt(col, summary.timeBase, i);
  return (
    <div role="row" className={className} style={{ transform: `translateY(${top}px)`, height: ROW_H }}
      onClick={() => seek(i)} aria-selected={selected} aria-current={current ? 'step' : undefined}
      title={inherited ? 'inherited from the parent session (copied when this session was forked)' : undefined}>
      <span className="seq mono">{col.seq[i]}</span>
      <span className="change" title={CHANGE_TITLE[change]}>{CHANGE_MARK[change]}</span>
      <span className="type mono">{summary.typeNames[col.typeId[i]]}</span>
      <span className="ts mono">{col.turn[i]}.{col.step[i]}</span>
      <span className="time mono" title={isoOf(time)}>{clock(time)}</span>
      <span className="preview">{r?.pair && <PairBadge pair={r.pair} isCall={r.type === 'tool/call'} />}{col.synthetic[i] ? '[synthetic] ' : ''}{r?.preview ?? ''}</span>
    </div>
  );
});

const ms = (n: number | null) => (n === null ? '' : ` · ${formatMs(n)}`);

/** A call's result (status and time) or a result's call, one click from the other. */
function PairBadge({ pair, isCall }: { pair: NonNullable<RowSummary['pair']>; isCall: boolean }) {
  const seek = useCursor((s) => s.seek);
  const text = isCall ? `→ ${pair.status}${ms(pair.ms)}` : `← ${pair.name || 'call'}${ms(pair.ms)}`;
  const title = isCall ? (pair.other < 0 ? 'no result has answered this call yet' : `answered by the result at event ${pair.other}: click to go there`) : `answers the ${pair.name} call at event ${pair.other}: click to go there`;
  return (
    <button className={`pair-badge pair-${pair.status}`} title={title} disabled={pair.other < 0}
      onClick={(e) => { e.stopPropagation(); if (pair.other >= 0) seek(pair.other); }}>{text}</button>
  );
}
