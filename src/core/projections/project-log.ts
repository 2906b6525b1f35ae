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
 * else (issue #15): the reader gives the same committed events, in the same
 * order, that the load's walk hands its projection rider — every event, and
 * packed runs whole — so a helper worker can do this part of the load on
 * another core while the load reads, folds and indexes the same bytes. The
 * restore's synthetic events are not here: the load applies them to the
 * history it imports. No byte and no event is kept.
 */
export async function projectLog(source: ByteSource, options: Pick<ReadLogOptions, 'cancelled' | 'pause' | 'maxLineChars'> = {}): Promise<ProjectedLog> {
  let registry: ProjectionRegistry | null = null;
  let error: unknown = undefined;
  let tally: ReadChunkTally | null = null;
  const registryOf = (reader: LogReader) => {
    if (registry) return registry;
    const made = loadRegistry({ header: reader.sessionHeader, version: reader.formatVersion, dialect: reader.logDialect }, noEvent);
    tally = new ReadChunkTally((kind) => made.readsKind(kind));
    return (registry = made);
  };
  let reader: LogReader | null = null;
  // The load's rider is guarded (a failure is reported, the read goes on): the same here.
  const guarded = (drive: () => void) => { if (error !== undefined) return; try { drive(); } catch (err) { error = err ?? new Error('projection fold failed'); } };
  const read = await readLog(source, {
    ...options,
    retainEvents: false,
    // The load's own reader reports the payload findings; these would be dropped.
    checkPayloads: false,
    // Chunk lines no unit would be handed are not parsed (chunk-skip.ts: the load checks them).
    skipLine: skipIgnoredChunks(() => registry),
    onReader: (r) => { reader = r; },
    onEvent: (accepted, r) => guarded(() => { registryOf(r).apply(accepted.event); tally!.add(accepted.event); }),
    onRun: (run, _line, _start, _end, r) => guarded(() => { registryOf(r).applyRun(run); tally!.addRun(run); }),
  });
  if (error !== undefined) return { history: null, error: error instanceof Error ? error.message : String(error) };
  registry ??= loadRegistry({ header: read.header, version: read.version, dialect: read.dialect }, noEvent);
  const lines = (reader as LogReader | null)?.skippedLines() ?? new Uint32Array(0);
  const skips: HelperSkips = { lines, readChunks: (tally as ReadChunkTally | null)?.count ?? 0, rows: read.scan.physicalRows };
  return { history: (registry as ProjectionRegistry).exportHistory(), error: null, skips };
}

/** The helper never folds again (the importing registry does, from its own store). */
const noEvent = (): undefined => undefined;
