import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import type { PackedRun } from '../log/packed-rows.ts';
import type { LogEvent, LogMeta } from '../log/types.ts';
import { foldRecorder, type FoldOptions, type SurfaceStep } from '../surface/fold.ts';
import type { SurfaceState } from '../surface/types.ts';
import { SurfaceWalker, type SurfaceVisitor } from '../surface/walk.ts';
import { endSeedAfter, OpenTurnTracker } from './repair.ts';

export type { LogMeta } from '../log/types.ts';

export interface LoaderOptions extends FoldOptions {
  /** Lookup of earlier events by seq (rules look back at endpoints, headers, targets). */
  eventAt(seq: number): LogEvent | undefined;
  /** Other analyses that ride on the same walk (replay index, requests, projections). */
  riders?: readonly SurfaceVisitor[];
}

/**
 * A session as DSH restores it, fed one committed event at a time: the
 * surface walk (with every rider), then the restore's closers and end-seed
 * through the same walk. foldSession feeds it an array; the streaming load
 * feeds it straight from the reader, so a huge log is read and folded in
 * one pass without keeping its events.
 */
export class SessionLoader {
  private readonly walker: SurfaceWalker;
  private readonly turns = new OpenTurnTracker();
  private readonly recorder: ReturnType<typeof foldRecorder>;
  /** The last event walked, or its stand-in after a run (the restore needs its type, seq and time). */
  private last: LogEvent | undefined = undefined;

  constructor(readonly meta: LogMeta, options: LoaderOptions) {
    this.recorder = foldRecorder(options);
    this.walker = new SurfaceWalker({ dialect: meta.dialect, eventAt: options.eventAt }, [this.recorder.visitor, ...(options.riders ?? [])]);
  }

  push(event: LogEvent): void {
    this.turns.observe(event);
    this.last = event;
    this.walker.step(event);
  }

  /** A packed run of chunk deltas, walked in bulk (chunks open or close nothing the restore tracks). */
  pushRun(run: PackedRun): void {
    const n = run.pieces.length;
    this.last = { type: 'assistant/chunk', seq: run.seq0 + n - 1, time: run.times[n - 1], data: null };
    this.walker.stepRun(run);
  }

  /**
   * Ends the logged part: computes what the restore appends (dsh-log-rules L8, L1.7),
   * hands each synthetic event to `place` (so the caller can store it before
   * lookups see it) and walks it.
   */
  restore(place: (event: LogEvent) => void): LogEvent[] {
    const closers = this.turns.closers(this.meta.dialect, this.last);
    const endSeed = endSeedAfter(closers.at(-1) ?? this.last);
    const synthetic = endSeed ? [...closers, endSeed] : closers;
    for (const event of synthetic) {
      place(event);
      this.push(event);
    }
    return synthetic;
  }

  get state(): SurfaceState {
    return this.walker.state;
  }
  get steps(): SurfaceStep[] {
    return this.recorder.steps;
  }
  get diagnostics(): Diagnostic[] {
    return this.recorder.diagnostics;
  }
}
