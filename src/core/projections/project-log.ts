import type { ByteSource } from '../log/bytes.ts';
import { readLog, type ReadLogOptions } from '../log/reader.ts';
import type { LogReader } from '../log/reader.ts';
import { loadRegistry } from './load-registry.ts';
import type { ProjectionRegistry, RegistryHistory } from './registry.ts';

/** What a helper's fold of the units over a log gives back. */
export interface ProjectedLog {
  /** Null when the fold failed (`error` says why) or the log has no header and no event. */
  history: RegistryHistory | null;
  error: string | null;
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
  const registryOf = (reader: LogReader) =>
    (registry ??= loadRegistry({ header: reader.sessionHeader, version: reader.formatVersion, dialect: reader.logDialect }, noEvent));
  // The load's rider is guarded (a failure is reported, the read goes on): the same here.
  const guarded = (drive: () => void) => { if (error !== undefined) return; try { drive(); } catch (err) { error = err ?? new Error('projection fold failed'); } };
  const read = await readLog(source, {
    ...options,
    retainEvents: false,
    // The load's own reader reports the payload findings; these would be dropped.
    checkPayloads: false,
    onEvent: (accepted, reader) => guarded(() => void registryOf(reader).apply(accepted.event)),
    onRun: (run, _line, _start, _end, reader) => guarded(() => registryOf(reader).applyRun(run)),
  });
  if (error !== undefined) return { history: null, error: error instanceof Error ? error.message : String(error) };
  registry ??= loadRegistry({ header: read.header, version: read.version, dialect: read.dialect }, noEvent);
  return { history: (registry as ProjectionRegistry).exportHistory(), error: null };
}

/** The helper never folds again (the importing registry does, from its own store). */
const noEvent = (): undefined => undefined;
