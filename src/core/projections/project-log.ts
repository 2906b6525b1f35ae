import type { ByteSource } from '../log/bytes.ts';
import { readLog, type ReadLogOptions } from '../log/reader.ts';
import type { LogReader } from '../log/reader.ts';
import { loadRegistry } from './load-registry.ts';
import type { ProjectionRegistry, RegistryHistory } from './registry.ts';
import { ReadChunkTally, skipIgnoredChunks, type HelperSkips } from './chunk-skip.ts';

/** What a helper's fold of the units over a log gives back. */
export interface ProjectedLog {
  /** Null when the fold failed (`error` says why) or the log has no header and no event. */
  history: RegistryHistory | null;
  error: string | null;
  /** The chunk lines it did not parse, for the load to check (absent: none skipped, or an older helper). */
  skips?: HelperSkips;
}

/**
 * The projection units folded over a log's committed events, and nothing
 * else (docs/long-sessions.md): the reader gives the same committed events, in the same
 * order, that the load's walk hands its projection rider — every event, and
 * packed runs whole — so a helper worker can do this part of the load on
 * another core while the load reads, folds and indexes the same bytes. The
 * restore's synthetic events are not here: the load applies them to the
 * history it imports. No byte and no event is kept.
 */
export async function projectLog(source: ByteSource, options: Pick<ReadLogOptions, 'cancelled' | 'pause' | 'maxLineChars' | 'onLetGo'> = {}): Promise<ProjectedLog> {
  // What the read makes as it goes: the registry and its tally of read chunks (at the first event, once
  // the header is known), and the reader (whose skipped lines go back with the history).
  const at: { fold: { registry: ProjectionRegistry; tally: ReadChunkTally } | null; reader: LogReader | null } = { fold: null, reader: null };
  let error: unknown = undefined;
  const foldOf = (reader: LogReader) => {
    if (at.fold) return at.fold;
    const registry = loadRegistry({ header: reader.sessionHeader, version: reader.formatVersion, dialect: reader.logDialect }, noEvent);
    return (at.fold = { registry, tally: new ReadChunkTally((kind) => registry.readsKind(kind)) });
  };
  // The load's rider is guarded (a failure is reported, the read goes on): the same here.
  const guarded = (drive: () => void) => { if (error !== undefined) return; try { drive(); } catch (err) { error = err ?? new Error('projection fold failed'); } };
  const read = await readLog(source, {
    ...options,
    retainEvents: false,
    // The load's own reader reports the payload findings; these would be dropped.
    checkPayloads: false,
    // Chunk lines no unit would be handed are not parsed (chunk-skip.ts: the load checks them).
    skipLine: skipIgnoredChunks(() => at.fold?.registry ?? null),
    onReader: (r) => { at.reader = r; },
    onEvent: (accepted, r) => guarded(() => { const f = foldOf(r); f.registry.apply(accepted.event); f.tally.after(accepted.event); }),
    onRun: (run, _line, _start, _end, r) => guarded(() => { const f = foldOf(r); f.registry.applyRun(run); f.tally.run(run); }),
  });
  if (error !== undefined) return { history: null, error: error instanceof Error ? error.message : String(error) };
  const registry = at.fold?.registry ?? loadRegistry({ header: read.header, version: read.version, dialect: read.dialect }, noEvent);
  const skipped: HelperSkips = { lines: at.reader?.skippedLines() ?? new Uint32Array(0), readChunks: at.fold?.tally.count ?? 0, rows: read.scan.physicalRows };
  return { history: registry.exportHistory(), error: null, skips: skipped };
}

/** The helper never folds again (the importing registry does, from its own store). */
const noEvent = (): undefined => undefined;
