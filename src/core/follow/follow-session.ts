import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import type { DecodeInfo } from '../log/bytes.ts';
import type { EventStore } from '../log/event-store.ts';
import type { PackedRun } from '../log/packed-rows.ts';
import type { LogReader } from '../log/reader.ts';
import type { LogEvent } from '../log/types.ts';
import { sessionFoldOf, type SessionFold } from '../session/fold-session.ts';
import type { SessionLoader } from '../session/session-loader.ts';
import { loadSession, type StreamLoadOptions } from '../session/stream-load.ts';
import { cloneSurface } from '../surface/types.ts';
import type { SurfaceVisitor } from '../surface/walk.ts';
import { ByteChannel } from './byte-channel.ts';

/** What a follower knows after each append (the CLI prints it as one JSON line). */
export interface FollowStatus {
  /** Committed events (a row after a bad row counts only once a later turn/end commits it). */
  events: number;
  /** Seq of the last committed event (-1 before any). */
  lastSeq: number;
  /** Surface nodes after the last committed event (no restore closers while the log is live). */
  nodes: number;
  /** Decoded bytes read but not committed: the line waiting for its newline, rows a later turn/end may commit. */
  pending: number;
  /** Findings of the committed part: the reader's and the fold's. */
  findings: number;
}

/** Bytes handed to the load at once: an append of a whole file is read in pieces, with pauses between them. */
const APPEND_SLICE = 1 << 20;

/** A store as of `n` events, the load appending more: every method reads the store, its length stays `n`. */
function storeAsOf(store: EventStore, n: number): EventStore {
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, key) {
      if (key === 'length') return n;
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      let method = bound.get(key);
      if (!method) bound.set(key, (method = value.bind(target)));
      return method;
    },
  });
}

export type FollowOptions = Pick<StreamLoadOptions, 'riders' | 'cacheSize' | 'maxLineChars' | 'pause'>;

/**
 * A log followed as it grows (docs/follow.md): the bytes appended to the file
 * are pushed into the same streaming load a whole file goes through
 * (decoder, reader, fold, riders), which simply has not seen the end of
 * its input yet. So a final line without its newline is pending, not a
 * torn tail, and a zstd frame or gzip member cut anywhere waits for the
 * rest; `stop()` ends the input, and only then do the torn-tail rule and
 * the restore's closers apply, exactly as for a whole file.
 */
export class FollowSession {
  private readonly channel = new ByteChannel();
  private readonly done: Promise<SessionFold<EventStore>>;
  private reader: LogReader | null = null;
  private decoded: DecodeInfo | null = null;
  private loader: SessionLoader | null = null;
  private store: EventStore | null = null;
  private lastSeq = -1;
  private appended = 0;
  private failure: unknown = null;
  private cancelled = false;

  constructor(options: FollowOptions = {}) {
    // The last committed seq, told by the walk itself (events and packed runs alike).
    const tap: SurfaceVisitor = {
      after: (event: LogEvent) => { this.lastSeq = event.seq; },
      run: (run: PackedRun) => { this.lastSeq = run.seq0 + run.pieces.length - 1; },
    };
    this.done = loadSession(this.channel, {
      cacheSize: options.cacheSize,
      maxLineChars: options.maxLineChars,
      pause: options.pause,
      cancelled: () => this.cancelled,
      onReader: (reader, info) => { this.reader = reader; this.decoded = info; },
      onLoader: (loader) => { this.loader = loader; },
      riders: (meta, store) => {
        this.store = store;
        return [...(options.riders?.(meta, store) ?? []), tap];
      },
    });
    // A load that stops (an error at a line) is reported by append/stop, never unhandled.
    this.done.catch((err) => { this.failure = err; });
  }

  /** Raw bytes appended to the file (plain, zstd or gzip, cut anywhere): read through, then the status. */
  async append(bytes: Uint8Array): Promise<FollowStatus> {
    this.appended += bytes.length;
    // In slices: the load pauses between chunks (when asked to), and a file's first read is all of it.
    for (let o = 0; o < bytes.length; o += APPEND_SLICE) this.channel.push(bytes.subarray(o, o + APPEND_SLICE));
    await Promise.race([this.channel.idle(), this.done]);
    if (this.failure) throw this.failure;
    return this.status();
  }

  /** Raw bytes appended so far (where the next read of the file starts). */
  get offset(): number {
    return this.appended;
  }

  status(): FollowStatus {
    const store = this.store;
    const loader = this.loader;
    return {
      events: store ? store.length : 0,
      lastSeq: this.lastSeq,
      nodes: loader ? loader.state.nodes.length : 0,
      pending: this.reader?.pendingBytes ?? 0,
      findings: this.findings().length,
    };
  }

  /** The findings of the committed part so far. */
  findings(): Diagnostic[] {
    return [...(this.reader?.committedDiagnostics() ?? []), ...(this.loader?.diagnostics ?? [])];
  }

  /**
   * The committed part as a session, while the log is still being written:
   * the events, surface and findings so far, without the restore's closers
   * (a turn in progress is not interrupted) or the end-of-input rules. It
   * stays as it is while the load goes on (its store's length fixed, its
   * surface a copy). Null before the header.
   */
  committedFold(): SessionFold<EventStore> | null {
    const { reader, loader, store } = this;
    if (!reader || !loader || !store || this.failure) return null;
    // Between appends no event is being walked: every one is looked up from the store.
    const eventAt = (seq: number) => store.bySeq(seq);
    // As it is now, though the load goes on (an append read in pieces lets queries in between).
    const n = store.length;
    const now = { state: cloneSurface(loader.state), diagnostics: loader.diagnostics.slice(), steps: loader.steps };
    return sessionFoldOf(reader.committedMeta(this.decoded?.encoding ?? 'plain'), storeAsOf(store, n), n, store.origin.bind(store), now, [], eventAt);
  }

  /** Following is over without an end to the log (another log was opened): what is left to read is not. */
  cancel(): void {
    this.cancelled = true;
    this.channel.close();
  }

  /** Following stops: the input ends, the torn-tail rule and the restore apply; the whole session as a load of the file would give it. */
  async stop(): Promise<SessionFold<EventStore>> {
    this.channel.close();
    return this.done;
  }
}
