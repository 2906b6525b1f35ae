import type { CompareRun } from '../compare/run.ts';
import type { LogEvent } from '../log/types.ts';
import { eventPreview } from '../replay/preview.ts';
import { SURFACE_CHANGE } from '../replay/navigate.ts';

/** The events around a seq, as `dsh-devtools around` answers: each with a preview bounded to a line. */
export interface AroundEvent {
  seq: number;
  type: string;
  turn: number | null;
  step: number | null;
  /** What the event did to the surface. */
  surface: 'append' | 'replace' | 'project' | 'reject' | null;
  preview: string;
  /** The event asked for (or the first after it, when that seq is not in the log). */
  at?: true;
}

export interface Around {
  seq: number;
  /** The seq the window is centred on (the one asked for, or the next that exists). */
  atSeq: number | null;
  events: AroundEvent[];
}

const CHANGE_NAMES = ['append', 'replace', 'project', 'reject'] as const;
const changeName = (code: number): AroundEvent['surface'] => (code === SURFACE_CHANGE.none ? null : CHANGE_NAMES[code - 1] ?? null);

/** A preview cut to `chars` characters (an ellipsis marks the cut). */
export function boundedPreview(event: LogEvent, chars: number): string {
  const text = eventPreview(event).replace(/\s+/g, ' ');
  return text.length > chars ? `${text.slice(0, Math.max(0, chars - 1))}…` : text;
}

export function eventsAround(run: Pick<CompareRun, 'count' | 'seqAt' | 'eventAt' | 'indexOfSeq' | 'columns'>, seq: number, before: number, after: number, previewChars = 160): Around {
  const at = run.indexOfSeq(seq);
  const from = Math.max(0, Math.min(at, run.count) - before);
  const to = Math.min(run.count, at + after + 1);
  const events: AroundEvent[] = [];
  for (let i = from; i < to; i++) {
    const s = run.seqAt(i);
    const e = s === undefined ? undefined : run.eventAt(s);
    if (!e) continue;
    const row: AroundEvent = {
      seq: e.seq, type: e.type,
      turn: typeof e.data?.turn === 'number' ? e.data.turn : null,
      step: typeof e.data?.step === 'number' ? e.data.step : null,
      surface: changeName(run.columns.surfaceChange[i] ?? 0),
      preview: boundedPreview(e, previewChars),
    };
    if (i === at) row.at = true;
    events.push(row);
  }
  return { seq, atSeq: at < run.count ? run.seqAt(at) ?? null : null, events };
}
