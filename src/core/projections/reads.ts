import type { LogEvent } from '../log/types.ts';
import type { AnyUnit } from './types.ts';

/**
 * What kind of event an event is for a unit's `reads` (dsh-log-rules J1.2
 * item 2, made finer for the load): its type, or for a chunk delta
 * `assistant/chunk:<chunk type>` — most events of an rc.8 log are chunks, and
 * most units care about one kind of chunk (usage) or none.
 */
const CHUNK = 'assistant/chunk';
/** At most this many chunk types get a kind of their own; any later one is plain `assistant/chunk`. */
const MAX_CHUNK_KINDS = 256;
const chunkKinds = new Map<string, string>();
/**
 * The chunk types met so far with their kinds, in the order met: the helper
 * matches a chunk line's type against them in place (chunk-skip.ts).
 */
export const knownChunkKinds: (readonly [type: string, kind: string])[] = [];

export function kindOf(event: LogEvent): string {
  return event.type === CHUNK ? chunkKind(event.data?.chunk?.type) : event.type;
}

/** The kind of a chunk delta of chunk type `type`: one string per type, made once. */
export function chunkKind(type: unknown): string {
  if (typeof type !== 'string') return CHUNK;
  let kind = chunkKinds.get(type);
  if (kind === undefined) {
    if (chunkKinds.size >= MAX_CHUNK_KINDS) return CHUNK;
    // Joined, not concatenated: a flat string of its own, holding no reference to the text the type was cut from.
    kind = [CHUNK, type].join(':');
    const own = kind.slice(CHUNK.length + 1);
    chunkKinds.set(own, kind);
    knownChunkKinds.push([own, kind]);
  }
  return kind;
}

/** Whether a list of kinds covers `kind` (`assistant/chunk` covers every chunk kind). */
export function coversKind(list: readonly string[], kind: string): boolean {
  return list.includes(kind) || (kind.startsWith(`${CHUNK}:`) && list.includes(CHUNK));
}

/** Whether `unit`, in `state`, reads events of `kind`: its `reads`, and what its state adds (alsoReads). */
export function unitReads(unit: AnyUnit, state: unknown, kind: string): boolean {
  return !unit.reads || coversKind(unit.reads, kind) || alsoReadsKind(unit, state, kind);
}

/** Whether what `unit`'s state reads beyond its `reads` (alsoReads) covers `kind`. */
export function alsoReadsKind(unit: AnyUnit, state: unknown, kind: string): boolean {
  const also = unit.alsoReads?.(state);
  return also === 'all' || (also != null && coversKind(also, kind));
}
