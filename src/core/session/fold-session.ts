import { firstRefusal, type Diagnostic } from '../diagnostics/diagnostic.ts';
import type { EventList } from '../log/event-list.ts';
import type { EventOrigin, LogEvent, ReadMeta, ReadResult } from '../log/types.ts';
import { deriveMessages } from '../messages/derive.ts';
import { buildTranscript, type TranscriptEntry } from '../surface/transcript.ts';
import type { Message } from '../messages/types.ts';
import { eventLookup, type FoldOptions, type SurfaceStep } from '../surface/fold.ts';
import type { SurfaceState } from '../surface/types.ts';
import type { SurfaceVisitor } from '../surface/walk.ts';
import { SessionLoader } from './session-loader.ts';

/**
 * A log as DSH would restore it: the logged events, the synthetic events
 * the restore appends (closers, end-seed), and the folded surface. `events`
 * is an array for a log read whole, or an EventStore for a streaming load.
 */
export interface SessionFold<E extends EventList = EventList> {
  read: ReadMeta;
  /** Appended by the restore, never in the file (dsh-log-rules L8). */
  synthetic: LogEvent[];
  /** Logged events followed by the synthetic ones. */
  events: E;
  /** How many of `events` come from the file. */
  loggedCount: number;
  /** Where event `index` is in the file; null for a synthetic event. */
  originAt(index: number): EventOrigin | null;
  surface: SurfaceState;
  steps: SurfaceStep[];
  /** Reader findings followed by fold findings. */
  diagnostics: Diagnostic[];
  /** The model context after the last event (derived on first use). */
  readonly messages: Message[];
  /** Every appended message in log order (derived on first use). */
  readonly transcript: TranscriptEntry[];
  /** False when DSH would refuse to restore this log. */
  ok: boolean;
  eventAt(seq: number): LogEvent | undefined;
}

export interface FoldSessionOptions extends FoldOptions {
  /** Analyses that ride on the fold's walk. */
  riders?: readonly SurfaceVisitor[];
}

/** The fold of a log read whole: events in an array, the read with them. */
export type ArraySessionFold = SessionFold<LogEvent[]> & { read: ReadResult };

export function foldSession(read: ReadResult, options: FoldSessionOptions = {}): ArraySessionFold {
  const events = read.events.slice();
  const logged = eventLookup(read.events);
  const syntheticBySeq = new Map<number, LogEvent>();
  const eventAt = (seq: number) => logged(seq) ?? syntheticBySeq.get(seq);
  const loader = new SessionLoader(read, { ...options, eventAt });
  for (const event of read.events) loader.push(event);
  const synthetic = loader.restore((event) => { events.push(event); syntheticBySeq.set(event.seq, event); });
  return sessionFoldOf<LogEvent[], ReadResult>(read, events, read.events.length, (i) => read.origins[i] ?? null, loader, synthetic, eventAt);
}

/** Assembles the fold once the loader has walked every event (array or streamed). */
export function sessionFoldOf<E extends EventList, R extends ReadMeta = ReadMeta>(
  read: R,
  events: E,
  loggedCount: number,
  originAt: (index: number) => EventOrigin | null,
  loader: Pick<SessionLoader, 'state' | 'diagnostics' | 'steps'>,
  synthetic: LogEvent[],
  eventAt: (seq: number) => LogEvent | undefined,
): SessionFold<E> & { read: R } {
  const diagnostics = [...read.diagnostics, ...loader.diagnostics];
  const surface = loader.state;
  let messages: Message[] | undefined;
  let transcript: TranscriptEntry[] | undefined;
  return {
    read,
    synthetic,
    events,
    loggedCount,
    originAt,
    surface,
    steps: loader.steps,
    diagnostics,
    get messages() { return (messages ??= deriveMessages(surface, eventAt)); },
    get transcript() { return (transcript ??= buildTranscript(events, surface, read.dialect)); },
    ok: firstRefusal(diagnostics) === undefined,
    eventAt,
  };
}
