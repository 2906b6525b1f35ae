import { memo } from 'react';
import { sameFields } from '../same-fields.ts';
import { streamPreview } from '../../core/messages/stream-summary.ts';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { useWorkerQuery } from '../hooks/useWorkerQuery.ts';
import { formatMs } from '../counts.ts';
import { timeAt } from '../../core/replay/time-column.ts';

/** Where the cursor and the selection stand against a stream's chunks (the list works it out per step). */
export interface StreamMarks {
  /** The cursor is on one of its chunks. */
  holdsCursor: boolean;
  /** The selected event is one of its chunks. */
  holdsSelected: boolean;
  /** It starts after the cursor. */
  future: boolean;
}

interface StreamRowProps {
  start: number;
  end: number;
  top: number;
  height: number;
  open: boolean;
  marks: StreamMarks;
  onToggle: (start: number) => void;
}

/**
 * One streamed model output (chunk events `start`…`end`-1) as one row: what
 * it said and called, how it finished, its chunk count and duration; the
 * arrow shows its deltas. A click moves the cursor to its first chunk.
 * Memoized on plain props: a cursor step re-renders only the rows whose marks it changed, so a step fits in a frame.
 */
export const StreamRow = memo(function StreamRow({ start, end, top, height, open, marks, onToggle }: StreamRowProps) {
  const summary = useSession((s) => s.summary)!;
  const seek = useCursor((s) => s.seek);
  // Asked once per row shown (rows are few: the list is virtual); a log still loading answers too.
  const stream = useWorkerQuery((c) => c.stream(start, end), [start, end], { whileLoading: true });
  const col = summary.columns;
  const { holdsCursor } = marks;
  const classes = ['event-row', 'stream-row', 'fam-chunk'];
  if (holdsCursor && !open) classes.push('at-cursor');
  if (marks.holdsSelected && !open) classes.push('selected');
  if (marks.future) classes.push('future');
  const duration = Math.max(0, timeAt(col, summary.timeBase, end - 1) - timeAt(col, summary.timeBase, start));
  const label = `stream of ${end - start} chunks, seq ${col.seq[start]} to ${col.seq[end - 1]}`;
  return (
    <div role="row" aria-label={label} aria-expanded={open} className={classes.join(' ')} style={{ transform: `translateY(${top}px)`, height }}
      onClick={() => seek(holdsCursor ? useCursor.getState().index : start)} aria-current={holdsCursor ? 'step' : undefined}
      title={`${label}, ${formatMs(duration)}: click to go to it, ▸ to show its chunks`}>
      <span className="seq mono">{col.seq[start]}</span>
      <button className="stream-toggle" aria-label={open ? 'Hide the chunks' : 'Show the chunks'} onClick={(e) => { e.stopPropagation(); onToggle(start); }}>{open ? '▾' : '▸'}</button>
      <span className="type mono">stream · {end - start}</span>
      <span className="ts mono">{col.turn[start]}.{col.step[start]}</span>
      <span className="time mono">{formatMs(duration)}</span>
      <span className="preview" title={stream ? `${stream.blocks.length ? `blocks: ${stream.blocks.join(' + ')}. ` : ''}${streamPreview(stream)}` : undefined}>
        {stream ? <>
          {streamPreview(stream)}
          {stream.outputTokens !== null && <span className="muted"> · {stream.outputTokens} tokens out</span>}
        </> : <span className="muted">…</span>}
      </span>
    </div>
  );
}, sameStreamRow);

/** Marks compare by value: the list makes a new object for each row on each render. */
function sameStreamRow({ marks: a, ...restA }: StreamRowProps, { marks: b, ...restB }: StreamRowProps): boolean {
  return sameFields(restA, restB) && sameFields(a, b);
}
