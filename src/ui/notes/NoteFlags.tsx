import { memo } from 'react';
import { noteKind, notePlace } from '../../core/notes/note.ts';
import { firstAtOrAfter } from '../../core/notes/note-targets.ts';
import { useNotes } from '../../store/notes.ts';
import type { LoadSummary } from '../../worker/protocol.ts';
import { notePlaces } from './actions.ts';

/**
 * The notes as flags over an axis of the log's events (the timeline's, the
 * scrubber's): each at its event, a range as a bar to its end. `x` maps an
 * event index to a position in `unit` (null: outside the view). Memoized, so
 * the caller keeps `x` stable (useCallback): the scrubber re-renders on every
 * step, its flags only when the notes or the axis change. Text only: the
 * title is the note's own words.
 */
export const NoteFlags = memo(function NoteFlags({ summary, x, unit, seek }: { summary: LoadSummary; x: (index: number) => number | null; unit: 'px' | '%'; seek(index: number): void }) {
  const notes = useNotes((s) => s.notes);
  if (!notes.length || summary.partial) return null;
  const { indexes } = notePlaces(summary, notes);
  // A range's end: its last event, or the log's last when the range runs past it.
  const endIndex = (seq: number) => Math.min(summary.count, firstAtOrAfter(summary.columns.seq, summary.count, seq + 1)) - 1;
  return (
    <div className="note-flags" aria-label="Notes">
      {notes.map((n, k) => {
        const i = indexes[k];
        const left = i >= 0 ? x(i) : null;
        if (left === null) return null;
        const end = n.endSeq !== undefined ? x(endIndex(n.endSeq)) : null;
        const label = `${noteKind(n) === 'bookmark' ? 'Bookmark' : 'Note'} at ${notePlace(n)}${n.text ? `: ${n.text.length > 120 ? `${n.text.slice(0, 120)}…` : n.text}` : ''}`;
        return (
          <button key={n.id} className={`note-flag note-${noteKind(n)}`} style={{ left: `${left}${unit}`, ...(end !== null && end > left ? { width: `${end - left}${unit}` } : {}) }}
            title={label} aria-label={label} onClick={(e) => { e.stopPropagation(); seek(i); }} />
        );
      })}
    </div>
  );
});
