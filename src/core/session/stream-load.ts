import { EventStore } from '../log/event-store.ts';
import { LineStore } from '../log/line-store.ts';
import { readLog, type ReadLogOptions } from '../log/reader.ts';
import type { ByteSource } from '../log/bytes.ts';
import type { LogEvent, ReadMeta } from '../log/types.ts';
import type { SurfaceVisitor } from '../surface/walk.ts';
import { sessionFoldOf, type SessionFold } from './fold-session.ts';
import { SessionLoader, type LogMeta } from './session-loader.ts';

export interface StreamLoadOptions extends Pick<ReadLogOptions, 'onProgress' | 'cancelled' | 'pause' | 'maxLineChars' | 'onReader' | 'readBack' | 'onLetGo'> {
  /** Analyses to carry on the walk, made once the header line is known. */
  riders?(meta: LogMeta, store: EventStore): readonly SurfaceVisitor[];
  /** Parsed events kept for lookups after the load (the LRU size). */
  cacheSize?: number;
  /** Expected decoded size in bytes, when known: sizes the per-event arrays up front. */
  sizeHint?: number | null;
  /** Bytes behind the read kept for the rules that look back, when lines are read back from the file (LineStore's default). */
  keepBehind?: number;
  /** Called once with the loader, when the header line is known (a follower reads its live surface and findings). */
  onLoader?(loader: SessionLoader): void;
}

/**
 * Sizing the per-event arrays from the file: rc.8 logs run ~60 bytes per
 * event, logs with embedded streams several hundred. The guess errs low (a
 * few doublings) rather than high (memory reserved for events that never come).
 */
export const BYTES_PER_EVENT = 400;
/** Lines run longer than events (a packed row holds many): the store's per-line arrays are sized by this. */
const LINE_BYTES = 1024;

/**
 * Reads, folds and indexes a log in one streaming pass (docs/long-sessions.md): each
 * committed event goes from the reader straight into the walk and is then
 * dropped; only the decoded bytes, a few numbers per line (EventStore)
 * and what the riders keep remain. No event is kept alive for the walk: the
 * riders keep what they need as numbers (the surface ledger), and a rule
 * that looks back parses the event again from its line.
 */
export async function loadSession(source: ByteSource, options: StreamLoadOptions = {}): Promise<SessionFold<EventStore>> {
  const lines = new LineStore(true, options.keepBehind, options.onLetGo);
  const store = new EventStore(lines, options.cacheSize, options.sizeHint ? options.sizeHint / LINE_BYTES : undefined, options.sizeHint ?? 0);
  const lookup = currentLookup(store);
  const { eventAt } = lookup;
  let loader: SessionLoader | null = null;
  const start = (m: LogMeta) => {
    loader = new SessionLoader(m, { eventAt, riders: options.riders?.(m, store) ?? [] });
    options.onLoader?.(loader);
    return loader;
  };
  const read = await readLog(source, {
    ...options,
    retainEvents: false,
    lines,
    onEvent(accepted, reader) {
      store.add(accepted.event, accepted.origin, accepted.start, accepted.end, accepted.exact);
      const l = loader ?? start({ header: reader.sessionHeader, version: reader.formatVersion, dialect: reader.logDialect });
      lookup.current = accepted.event;
      l.push(accepted.event);
      lookup.current = null;
    },
    onRun(run, line, startByte, endByte, reader) {
      store.addRun(run.pieces.length, line, startByte, endByte, run.seq0);
      const l = loader ?? start({ header: reader.sessionHeader, version: reader.formatVersion, dialect: reader.logDialect });
      l.pushRun(run);
    },
  });
  const { events: _events, origins: _origins, ...readMeta } = read;
  const l: SessionLoader = loader ?? start({ header: read.header, version: read.version, dialect: read.dialect });
  const loggedCount = store.length;
  const synthetic = l.restore((event) => { store.addSynthetic(event); lookup.current = event; });
  lookup.current = null;
  return sessionFoldOf<EventStore, ReadMeta>(readMeta, store, loggedCount, store.origin.bind(store), l, synthetic, eventAt);
}

/**
 * Event lookup by seq for the walk and after it: the event being walked is
 * at hand, every earlier one is parsed again from its line (a rule looks
 * back rarely: replace endpoints, a changed message). Made in its own scope
 * so the closure the session keeps holds only the store, never the loader,
 * its riders or the caller's options.
 */
function currentLookup(store: EventStore) {
  const lookup = {
    current: null as LogEvent | null,
    eventAt: (seq: number): LogEvent | undefined => (lookup.current?.seq === seq ? lookup.current : store.bySeq(seq)),
  };
  return lookup;
}
