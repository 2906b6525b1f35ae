import type { EventStore } from '../../core/log/event-store.ts';
import { FingerprintTap } from '../../core/log/fingerprint.ts';
import { LoadGuard } from '../../core/log/memory-budget.ts';
import type { ByteReader } from '../../core/log/read-back.ts';
import type { ProjectedLog } from '../../core/projections/project-log.ts';
import type { ReplayBuilder } from '../../core/replay/replay-index.ts';
import type { SessionFold } from '../../core/session/fold-session.ts';
import { loadSession } from '../../core/session/stream-load.ts';
import { logVerdict } from '../../core/session/verdict.ts';
import { loadRiders, type LoadRiders } from '../load-riders.ts';
import { platformMemoryBudget } from '../memory.ts';
import { OwnedChunks } from '../owned-chunks.ts';
import type { Projector } from '../projector.ts';
import type { LoadProgress, LoadSource, LoadSummary, PartialRows } from '../protocol.ts';
import { LoadingEvents } from '../services/events.ts';
import { watchChunks } from '../watched-chunks.ts';
import { PAUSE_EVERY_MS, yieldEvery } from '../yield-every.ts';
import { helperResult, startHelper } from './helper.ts';
import { openSource } from './open-source.ts';

const PROGRESS_INTERVAL_MS = 100;
/** How soon a loading log's first rows go to the page, and the least gap between reports (each copies only the rows since the last). */
const ROWS_INTERVAL_MS = 400;

/** A memory budget in bytes (else the platform's), and the reader's line limit (tests). */
export interface LoadOptions {
  memoryBudget?: number;
  maxLineChars?: number;
}

/** What a load needs from the worker it runs in. */
export interface LoadContext {
  /** A helper that folds the projection units on another core while a file loads (null: the load folds them). */
  projector: Projector | null;
  /** How a dropped file's lines are read back from it (the file itself, not a copy of its bytes); null keeps the bytes. */
  readBack: (file: Blob) => ByteReader | null;
  /** A read-back failed (the file changed on disk): the worker tells the page once. */
  lost(message: string): void;
}

/** A load's result: the folded session and the analyses that rode its walk, ready to be opened. */
export interface LoadedFile {
  session: SessionFold<EventStore>;
  riders: LoadRiders;
  projected: ProjectedLog | null;
  fingerprint: string;
  started: number;
  sourceWaitMs?: number;
  helperWaitMs?: number;
}

/**
 * One load of a source, from its first byte to a folded session: the
 * streaming read and fold with the analyses riding on its walk, a helper
 * folding the units of a file on another core, the memory guard, and
 * progress with the rows read so far (the page shows the log as it loads).
 * While it runs, `events` answers for the part read.
 */
export class LogLoad {
  /** The log being read, once its header is (the page shows the part read). */
  private reading: { store: EventStore; builder: ReplayBuilder; events: LoadingEvents } | null = null;
  /** Rows the progress reports brought the page (it keeps them: the load's answer then brings only the rest). */
  rowsSent = 0;
  private stopped = false;
  private helper: { cancel(): void } | null = null;

  constructor(private readonly source: LoadSource, private readonly context: LoadContext, private readonly options: LoadOptions = {}) {}

  /** The events read so far; null before the header is read. */
  get events(): LoadingEvents | null {
    return this.reading?.events ?? null;
  }

  cancel(): void {
    this.stopped = true;
    this.helper?.cancel();
  }

  async run(onProgress: (p: LoadProgress) => void): Promise<LoadedFile> {
    const { source, options } = this;
    const started = Date.now();
    const opened = await openSource(source);
    const { totalBytes } = opened;
    // The link's fingerprint is taken from the bytes as they stream past (the file is read once).
    const tap = new FingerprintTap();
    // A file's or a download's chunks are the load's own (the stream made them): each one's memory is given
    // back as soon as the load lets it go, not when a full collection next finds it.
    const own = source.kind === 'file' || source.kind === 'url' ? new OwnedChunks() : null;
    const input = watchChunks(own ? own.track(opened.chunks) : opened.chunks, (chunk) => tap.add(chunk));
    // A log that will not fit stops before the tab runs out of memory, checked now and after each chunk.
    const guard = new LoadGuard(totalBytes, platformMemoryBudget(options.memoryBudget));
    guard.check(null);
    let lastReport = 0;
    let lastRows = started;
    const pauses = yieldEvery(PAUSE_EVERY_MS);
    // The analyses ride on the load's one walk; they are made once the header line is read.
    const made: { riders?: LoadRiders; meta?: { header: LoadSummary['header']; version: number } } = {};
    // A file (shared with the helper, not copied) is folded for projections on another core meanwhile.
    const helper = source.kind === 'file' ? startHelper(this.context.projector, source.file, options.maxLineChars) : null;
    this.helper = helper;
    try {
      const session = await loadSession(input.chunks, {
        // The file's size sizes the per-event arrays; a compressed file undercounts and they grow past it.
        sizeHint: source.kind === 'text' ? source.text.length : totalBytes,
        // A file's lines (plain, or zstd through its frames) are read back from it when asked for, not kept in memory.
        readBack: source.kind === 'file' ? this.readBackOf(source.file, source.name) : undefined,
        cancelled: () => this.stopped,
        onLetGo: own?.letGo,
        pause: pauses.pause,
        maxLineChars: options.maxLineChars,
        onProgress: (p) => {
          guard.check(p);
          const now = Date.now();
          if (now - lastReport < PROGRESS_INTERVAL_MS) return;
          lastReport = now;
          // Every so often, the rows read since the last report. The page redraws the events list and the
          // timeline over every row it has at each report, so reports come further apart as the log grows
          // (each gap half the time so far): the page's work over the whole load stays linear.
          // The rows the whole file will hold, extrapolated from what was read: the page sizes its columns once.
          const expected = totalBytes && p.bytesIn > 0 ? Math.ceil((p.events * totalBytes) / p.bytesIn) : 0;
          const rows = now - lastRows >= Math.max(ROWS_INTERVAL_MS, (now - started) / 2) ? this.rowsRead(made.meta ?? null, expected) : undefined;
          if (rows) lastRows = now;
          onProgress({ bytesIn: p.bytesIn, totalBytes, events: p.events, phase: 'reading', ...(rows ? { rows } : {}) });
        },
        riders: (meta, store) => {
          made.riders = loadRiders(meta, totalBytes, store, { projections: !helper });
          this.reading = { store, builder: made.riders.replay, events: new LoadingEvents(store) };
          made.meta = { header: meta.header, version: meta.version };
          return made.riders.visitors;
        },
      });
      if (this.stopped) throw new Error('cancelled');
      let projected: ProjectedLog | null = null;
      let helperWaitMs: number | undefined;
      if (helper) {
        onProgress({ bytesIn: totalBytes ?? 0, totalBytes, events: session.events.length, phase: 'indexing' });
        const waitFrom = performance.now();
        projected = await helperResult(helper);
        helperWaitMs = Math.round(performance.now() - waitFrom);
        if (this.stopped) throw new Error('cancelled');
      }
      const { read } = session;
      if (!read.header && session.loggedCount === 0) {
        // Not a log at all (an image, a PDF, an empty file): the open log stays. Worded as the core's "not a DSH log" verdict.
        throw new Error(logVerdict({ header: read.header, version: read.version, diagnostics: read.diagnostics }).summary);
      }
      onProgress({ bytesIn: totalBytes ?? 0, totalBytes, events: session.events.length, phase: 'indexing' });
      // Text and bytes are in memory already: only a file's or a download's wait is worth saying.
      const sourceWaitMs = source.kind === 'file' || source.kind === 'url' ? Math.round(input.waitedMs()) : undefined;
      // loadSession makes its riders once the header is known, even for a log with no events.
      return { session, riders: made.riders!, projected, fingerprint: tap.value(), started, sourceWaitMs, helperWaitMs };
    } finally {
      helper?.cancel();
      pauses.close();
      // The part read is the open log's now (or nobody's): the builder's working columns, and the
      // helper's job with the history it sent, are let go (the log's store outlives this load).
      this.reading = null;
      this.helper = null;
    }
  }

  /** The rows walked since the last report (null before the header, or when none are new). */
  private rowsRead(header: { header: LoadSummary['header']; version: number } | null, expected: number): PartialRows | undefined {
    const reading = this.reading;
    if (!reading || !header || reading.builder.length === this.rowsSent) return undefined;
    const from = this.rowsSent;
    const { columns, typeNames, timeBase } = reading.builder.rowsSince(from);
    this.rowsSent = from + columns.seq.length;
    return { from, columns, timeBase, typeNames, header: header.header, version: header.version, expected };
  }

  /**
   * The file's read-back, watched: the first read that fails (the file
   * changed on disk) is said once, with the next answer to the page —
   * whichever query met it, even one that shows a placeholder instead.
   */
  private readBackOf(file: Blob, name: string): ByteReader | undefined {
    const reader = this.context.readBack(file);
    if (!reader) return undefined;
    // The reader lives as long as the log: it holds the worker's callback, never this load (its walk's state).
    const tell = this.context.lost;
    const lost = (message: string) => tell(`${name}: ${message}`);
    return {
      size: reader.size,
      read: (start, end) => {
        try {
          return reader.read(start, end);
        } catch (err) {
          lost(err instanceof Error ? err.message : String(err));
          throw err;
        }
      },
      failed: lost,
    };
  }
}
