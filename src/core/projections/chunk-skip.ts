import { runMember, PACKED_DELTA_TYPES, type PackedRun } from '../log/packed-rows.ts';
import type { LogEvent, ReadMeta } from '../log/types.ts';
import type { SurfaceVisitor } from '../surface/walk.ts';
import { chunkKind, kindOf, knownChunkKinds } from './reads.ts';
import type { ProjectionRegistry } from './registry.ts';

/**
 * The projection helper's shortcut (docs/long-sessions.md): most lines of an rc.8 log are
 * chunk deltas, and no unit reads a delta unless its state asks for more
 * (sessionStats until a step's first token). The helper does not parse a
 * chunk line that no unit would be handed; its history is then trusted only
 * when the load's own full read shows every skipped line was such a line —
 * otherwise the load folds the units itself, so the answers never depend on
 * the shortcut.
 */

const CHUNK = 'assistant/chunk';
const CHUNK_LINE = `{"type":"${CHUNK}","seq":`;
const CHUNK_TYPE = '"chunk":{"type":"';
const QUOTE = 0x22;
/** `{"type":"<packed row type>",` → the kind of its members. */
const PACKED_LINES: readonly (readonly [string, string])[] = Object.entries(PACKED_DELTA_TYPES).map(([row, delta]) => [`{"type":"${row}",`, `${CHUNK}:${delta}`]);

/**
 * The kind a line's events would have, read off its text as DSH writes it
 * (`assistant/chunk:<chunk type>`), for a chunk line or a packed chunk row;
 * null for any other line or a layout not recognised. A guess: a line can
 * say otherwise further on (a repeated key), which the check below finds.
 */
export function chunkLineKind(text: string): string | null {
  if (text.startsWith(CHUNK_LINE)) {
    const at = text.indexOf(CHUNK_TYPE, CHUNK_LINE.length);
    if (at < 0) return null;
    const from = at + CHUNK_TYPE.length;
    // A chunk type met before is matched in place: no string made per line, and the kind is the same
    // string each time (the registry looks it up per line; a new string would be hashed again).
    for (const [type, kind] of knownChunkKinds) if (text.startsWith(type, from) && text.charCodeAt(from + type.length) === QUOTE) return kind;
    const to = text.indexOf('"', from);
    return to > from && to - from <= 32 ? chunkKind(text.slice(from, to)) : null;
  }
  for (const [prefix, kind] of PACKED_LINES) if (text.startsWith(prefix)) return kind;
  return null;
}

/** The helper's `skipLine`: a chunk line whose events would reach no unit now. */
export function skipIgnoredChunks(registry: () => ProjectionRegistry | null): (text: string) => boolean {
  return (text) => {
    const r = registry();
    if (r === null) return false;
    const kind = chunkLineKind(text);
    return kind !== null && r.ignores(kind);
  };
}

/** Chunk events of kinds some unit reads by its `reads`, counted as they pass (both sides count the same way). */
export class ReadChunkTally implements SurfaceVisitor {
  readonly reads: ReadonlySet<string> = new Set([CHUNK]);
  count = 0;
  constructor(private readonly readsKind: (kind: string) => boolean) {}
  after(event: LogEvent): void {
    if (event.type === CHUNK && this.readsKind(kindOf(event))) this.count++;
  }
  run(run: PackedRun): void {
    if (this.readsKind(kindOf(runMember(run, 0)))) this.count += run.pieces.length;
  }
}

/** What the helper says of the lines it skipped. */
export interface HelperSkips {
  /** Line numbers (the header is line 1), ascending. */
  lines: Uint32Array;
  /** Chunk events of kinds some unit reads, among the events it did parse. */
  readChunks: number;
  /** Rows it read, skipped ones included (blank lines not counted). */
  rows: number;
}

/**
 * Events on the given lines, summed, when every one is a stored line of
 * chunk events only (by the index's type column), else -1.
 */
export function chunkEventsOn(
  store: { forLines(lines: ArrayLike<number>, visit: (from: number, to: number) => boolean): boolean },
  index: { columns: { typeId: ArrayLike<number> }; typeNames: readonly string[] },
  lines: Uint32Array,
): number {
  const { typeId } = index.columns;
  const chunk = index.typeNames.indexOf(CHUNK);
  let count = 0;
  const ok = store.forLines(lines, (from, to) => {
    for (let i = from; i < to; i++) if (typeId[i] !== chunk) return false;
    count += to - from;
    return true;
  });
  return ok ? count : -1;
}

/** What the load's own full read knows, to check the helper's skips against. */
export interface LoadRead {
  read: Pick<ReadMeta, 'rejectedRows' | 'diagnostics' | 'tornTail' | 'scan'>;
  /** The load's tally of the same chunk events (ReadChunkTally over every committed event). */
  readChunks: number;
  /** Events on each of these lines, summed, when every one is a stored line of chunk events only (else -1). */
  chunkEventsOn(lines: Uint32Array): number;
}

/**
 * How many events the skipped lines held, or null when the helper's history
 * cannot be trusted. It can when the load's read had no bad row (the helper's
 * reader took each row after a skipped one as in sequence), read as many rows,
 * finds every skipped line a clean line of chunk events only, and counts as
 * many chunk events of read kinds as the helper applied: so no skipped event
 * was one a unit reads — and no state asked for more, since the helper
 * skipped only while none did, and its states were the true ones up to there.
 */
export function skippedEventCount(skips: HelperSkips, load: LoadRead): number | null {
  // Nothing skipped: the helper read what the load read (the load's own checks of its history apply).
  if (skips.lines.length === 0) return 0;
  const { read } = load;
  const clean = read.rejectedRows.length === 0 && (read.tornTail === null || read.tornTail.rows === 0)
    && !read.diagnostics.some((d) => d.code.startsWith('row.'));
  if (!clean || skips.rows !== read.scan.physicalRows || skips.readChunks !== load.readChunks) return null;
  const events = load.chunkEventsOn(skips.lines);
  return events < 0 ? null : events;
}
