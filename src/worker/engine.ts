import type { EventStore } from '../core/log/event-store.ts';
import { LoadStopped, stoppedAt } from '../core/log/load-stopped.ts';
import type { ByteReader } from '../core/log/read-back.ts';
import type { SessionFold } from '../core/session/fold-session.ts';
import { peekHeader } from '../core/log/peek-header.ts';
import type { SessionHeader } from '../core/log/types.ts';
import { packLog, type PackedLog } from '../core/share/pack-log.ts';
import { openSource } from './load/open-source.ts';
import { fileReadBack } from './file-read-back.ts';
import { LogLoad, type LoadedFile, type LoadOptions } from './load/log-load.ts';
import type { LoadRiders } from './load-riders.ts';
import { OpenLog, type OpenInput } from './open-log/open-log.ts';
import { answer, methodsOf, type Post } from './operation-table.ts';
import { ENGINE_QUERIES, OPERATIONS, type EngineQueries, type LogHost, type Request } from './operations.ts';
import type { Projector } from './projector.ts';
import type { LoadProgress, LoadSource, LoadSummary, ProjectionAtCursor } from './protocol.ts';
import type { EventsReader } from './services/events.ts';

export { clampWindow } from './services/window.ts';
export { SILENT_LOOKUPS } from './services/cursor.ts';

/** `lost` once the page was told (a message never starts with a NUL). */
const SAID = '\u0000said';

/**
 * The load worker's state, kept free of worker globals so the same code runs
 * in tests: the open log (an OpenLog, which owns everything derived from it),
 * the load in flight, and the dispatch of the operation table
 * (operations.ts). Every query of the table is also a method of the engine
 * (`engine.state(query)`…), derived from the same table, for in-process
 * callers: tests, compare mode, the bench.
 */
export class Engine implements LogHost {
  /** The open log; a new load makes a new one and closes this. */
  private open: OpenLog | null = null;
  /** The load in flight (its events answer the page once its header is read). */
  private loading: LogLoad | null = null;
  /** Bumped by every load and cancel: a load, and its file's read-back, that sees another number is stale. */
  private loadToken = 0;
  /** A failed read-back not yet told to the page, or SAID once it was (once per log). */
  private lost: string | null = null;
  private projector: Projector | null;
  /** How a dropped file's lines are read back from it (the file itself, not a copy of its bytes); null keeps the bytes. */
  private readonly readBack: (file: Blob) => ByteReader | null;

  constructor(options: { projector?: Projector; readBack?: (file: Blob) => ByteReader | null } = {}) {
    this.projector = options.projector ?? null;
    this.readBack = options.readBack ?? fileReadBack;
  }

  /** The helper this engine's loads fold projection units with (a compare slot's loads share it). */
  helper(): Projector | null {
    return this.projector;
  }

  /** Attaches the helper that folds projection units on another core (the worker gets its port after it starts). */
  useProjector(projector: Projector | null): void {
    this.projector = projector;
  }

  openLog(): OpenLog {
    if (!this.open) throw new Error('no log loaded');
    return this.open;
  }

  current(): OpenLog | null {
    return this.open;
  }

  eventsReader(): EventsReader {
    return this.loading?.events ?? this.openLog().events;
  }

  /** A log is being opened (its header read, not yet folded): a followed log's refresh must not replace it. */
  get opening(): boolean {
    return this.loading?.events != null;
  }

  /** Loads `source` and makes it the open log; the previous one stays open if the load fails. */
  async load(source: LoadSource, onProgress: (p: LoadProgress) => void, options: LoadOptions = {}): Promise<LoadSummary> {
    return (await this.loadAndOpen(source, onProgress, options)).summary;
  }

  /** A load for the page: the columns handed over, and with `keepsRows` only those its progress reports did not bring. */
  async loadForPage(source: LoadSource, memoryBudget: number | undefined, keepsRows: boolean | undefined, onProgress: (p: LoadProgress) => void): Promise<LoadSummary> {
    const { summary, rowsSent } = await this.loadAndOpen(source, onProgress, { memoryBudget });
    const held = keepsRows ? rowsSent : 0;
    const { replay } = this.openLog();
    const columns = held > 0 ? replay.handOverColumnsSince(held) : replay.handOverColumns();
    return { ...summary, columns, ...(held > 0 ? { columnsFrom: held } : {}) };
  }

  /** The load and the open log it makes; `rowsSent`: the rows its progress reports brought the page. */
  private async loadAndOpen(source: LoadSource, onProgress: (p: LoadProgress) => void, options: LoadOptions): Promise<{ summary: LoadSummary; rowsSent: number }> {
    const token = ++this.loadToken;
    this.lost = null;
    this.loading?.cancel();
    const load = new LogLoad(source, {
      projector: this.projector,
      readBack: this.readBack,
      lost: (message) => { if (token === this.loadToken) this.lost ??= message; },
    }, options);
    this.loading = load;
    try {
      const loaded = await load.run(onProgress);
      if (token !== this.loadToken) throw new Error('cancelled');
      const opened = this.openOrStop(source.name, loaded, false);
      const { sourceWaitMs, helperWaitMs } = loaded;
      const summary = { ...opened.summary, ...(sourceWaitMs === undefined ? {} : { sourceWaitMs }), ...(helperWaitMs === undefined ? {} : { helperWaitMs }) };
      return { summary, rowsSent: load.rowsSent };
    } finally {
      if (this.loading === load) this.loading = null;
    }
  }

  cancel(): void {
    this.loadToken++;
    this.loading?.cancel();
  }

  async peek(source: LoadSource): Promise<SessionHeader | null> {
    return peekHeader((await openSource(source)).chunks);
  }

  async pack(source: LoadSource, redact: boolean): Promise<PackedLog> {
    return packLog((await openSource(source)).chunks, { redact });
  }

  /**
   * A followed log, read by a load of its own that goes on as the file grows
   * (follow-host.ts), opened as the open log from what that load's riders made:
   * `live` while the file is still being written (its committed part, read
   * without ending the riders' walk), else once its input has ended. The work
   * is the index and the summary, never the log read again. `requestsFrom`:
   * the summary's Requests rows before it are those of the last refresh.
   */
  openFollowed(name: string, session: SessionFold<EventStore>, riders: LoadRiders, fingerprint: string, live: boolean): { summary: LoadSummary; requestsFrom: number } {
    // A log being opened meanwhile is not replaced by the followed one.
    if (this.opening) throw new Error('cancelled');
    const { summary, rowsKept } = this.openOrStop(name, { session, riders, projected: null, fingerprint, started: Date.now() }, live);
    return { summary, requestsFrom: live ? rowsKept : 0 };
  }

  /** The open log's columns, handed over to the page (the worker keeps the navigation ones). */
  handOverColumns(): LoadSummary['columns'] {
    return this.openLog().replay.handOverColumns();
  }

  /** Copies of the open log's column rows from `from` on (a followed log's: the page holds the rows before). */
  columnsSince(from: number): LoadSummary['columns'] {
    return this.openLog().replay.columnsSince(from);
  }

  /** The lost file's message for the answer being posted (once; compare mode's answers carry it too). */
  takeLost(): { lost: string } | Record<string, never> {
    if (!this.lost || this.lost === SAID) return {};
    const lost = this.lost;
    this.lost = SAID;
    return { lost };
  }

  // The open log's parts, by the names in-process callers (tests, the bench) read them: null with no log open.
  get replay(): OpenLog['replay'] | null { return this.open?.replay ?? null; }
  get prompts(): OpenLog['prompts'] | null { return this.open?.prompts ?? null; }
  get projections(): OpenLog['registry'] | null { return this.open?.registry ?? null; }
  get notedCalls(): OpenLog['notedCalls'] | null { return this.open?.notedCalls ?? null; }

  /** Every projection unit at event `index`: the `projections` operation, by the name in-process callers know it. */
  projectionsAtIndex(index: number): ProjectionAtCursor[] {
    return this.openLog().units.projectionsAtIndex(index);
  }

  /** One request → its answer; progress goes to `post` as it happens. */
  handle(req: Request, post: Post): Promise<void> {
    return answer(OPERATIONS, this as LogHost, req, post, {
      // While a log loads only its rows and events can be asked (the page shows just those).
      refuse: (def) => (this.opening && !def.whileLoading ? 'the log is still loading' : null),
      // A load stopped by the reader (too big, an error at a line/seq) says why as a finding; the app keeps the open log.
      failure: (err) => (err instanceof LoadStopped ? { finding: err.finding } : {}),
      extra: () => this.takeLost(),
    });
  }

  /** The open log a load made, with its index, analyses and the summary the page gets. */
  private summarize(input: OpenInput): ReturnType<typeof OpenLog.open> {
    return OpenLog.open(input);
  }

  /** Opens a folded session as the open log; whatever throws stops with a finding that says where the log ended, and the open log stays. */
  private openOrStop(name: string, loaded: Omit<LoadedFile, 'sourceWaitMs' | 'helperWaitMs'>, live: boolean): ReturnType<typeof OpenLog.open> {
    const { session } = loaded;
    let opened: ReturnType<typeof OpenLog.open>;
    try {
      opened = this.summarize({ name, ...loaded, live, previous: this.open });
    } catch (err) {
      const last = session.loggedCount - 1;
      const line = last >= 0 ? session.originAt(last)?.line : undefined;
      const seq = last >= 0 ? session.events.at(last)?.seq : undefined;
      throw stoppedAt(err, { ...(line !== undefined ? { line } : {}), ...(seq !== undefined ? { seq } : {}) });
    }
    this.open?.close();
    this.open = opened.log;
    return opened;
  }
}

// The engine's query methods, one per operation of the table, run in process against its open log.
export interface Engine extends EngineQueries {}
Object.assign(Engine.prototype, methodsOf(OPERATIONS, ENGINE_QUERIES, (self: Engine) => self));
