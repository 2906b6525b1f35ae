import { firstRefusal, type Diagnostic } from '../diagnostics/diagnostic.ts';
import type { LogEvent, ReadResult } from '../log/types.ts';
import { deriveMessages } from '../messages/derive.ts';
import { buildTranscript, type TranscriptEntry } from '../messages/transcript.ts';
import type { Message } from '../messages/types.ts';
import { eventLookup, foldSurface, type FoldOptions, type SurfaceStep } from '../surface/fold.ts';
import type { SurfaceState } from '../surface/types.ts';
import { interruptedTurnClosers, restoreEndSeed } from './repair.ts';

/**
 * A log as DSH would restore it: the logged events, the synthetic events
 * the restore appends (closers, end-seed), and the folded surface.
 */
export interface SessionFold {
  read: ReadResult;
  /** Appended by the restore, never in the file (spec §8). */
  synthetic: LogEvent[];
  /** Logged events followed by the synthetic ones. */
  events: LogEvent[];
  surface: SurfaceState;
  steps: SurfaceStep[];
  /** Reader findings followed by fold findings. */
  diagnostics: Diagnostic[];
  messages: Message[];
  transcript: TranscriptEntry[];
  /** False when DSH would refuse to restore this log. */
  ok: boolean;
  eventAt(seq: number): LogEvent | undefined;
}

export function foldSession(read: ReadResult, options: FoldOptions = {}): SessionFold {
  const closers = interruptedTurnClosers(read.events, read.dialect);
  const withClosers = closers.length ? [...read.events, ...closers] : read.events;
  const endSeed = restoreEndSeed(withClosers);
  const synthetic = endSeed ? [...closers, endSeed] : closers;
  const events = synthetic.length ? [...read.events, ...synthetic] : read.events;
  const fold = foldSurface(events, read.dialect, options);
  const eventAt = eventLookup(events);
  const diagnostics = [...read.diagnostics, ...fold.diagnostics];
  return {
    read,
    synthetic,
    events,
    surface: fold.state,
    steps: fold.steps,
    diagnostics,
    messages: deriveMessages(fold.state, eventAt),
    transcript: buildTranscript(events, fold.state),
    ok: firstRefusal(diagnostics) === undefined,
    eventAt,
  };
}
