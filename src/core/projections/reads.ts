import type { LogEvent } from '../log/types.ts';
import type { AnyUnit } from './types.ts';

/**
 * What kind of event an event is for a unit's `reads` (spec projections §1.2
 * rule 2, made finer for the load): its type, or for a chunk delta
 * `assistant/chunk:<chunk type>` — most events of an rc.8 log are chunks, and
 * most units care about one kind of chunk (usage) or none.
 */
const CHUNK = 'assistant/chunk';
const chunkKinds = new Map<unknown, string>();

export function kindOf(event: LogEvent): string {
  if (event.type !== CHUNK) return event.type;
  const t = event.data?.chunk?.type;
  let kind = chunkKinds.get(t);
  if (kind === undefined) {
    kind = typeof t === 'string' && chunkKinds.size < 256 ? `${CHUNK}:${t}` : CHUNK;
    if (typeof t === 'string' && chunkKinds.size < 256) chunkKinds.set(t, kind);
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
