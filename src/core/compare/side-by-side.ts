import type { Message } from '../messages/types.ts';
import { boundedLineDiff, diffSnapshots, type DiffLimits, type LinePart, type SnapshotDiff, type SnapshotLike } from '../prompt/context-diff.ts';
import { contentHash } from '../requests/hash.ts';

/**
 * The side-by-side panels of a comparison at two cursors (issue #20): the
 * two surfaces with nodes paired by message identity, every projection
 * unit's value on both sides with both watermarks, and the runtime context
 * in force on each side as a section diff. Pure: the worker hands in what
 * each side's engine holds at its cursor.
 */

/** A surface node as the pairing reads it. */
export interface NodeIdentity {
  seq: number;
  /** The message's own id (null: none, or no message). */
  messageId: string | null;
  /** Hash of the message without its id (null: the node sends no message). */
  content: string | null;
}

/** Hash of a message as content: everything but its id (two runs mint different ids for the same prompt). */
export function contentKey(message: Message | null): string | null {
  if (!message) return null;
  const { id: _id, ...rest } = message;
  return contentHash(JSON.stringify(rest));
}

export type NodePairing = 'same' | 'changed' | 'a-only' | 'b-only';

/** One row of the paired surfaces: 0-based node positions on each side. */
export interface PairedNode {
  a: number | null;
  b: number | null;
  /** same: equal content; changed: the same message id with different content. */
  match: NodePairing;
}

/** How far ahead a content match may pair (an id match may pair at any distance). */
const CONTENT_WINDOW = 64;

/**
 * Nodes paired in order: by message id first (identity: a fork's inherited
 * messages, a message rewritten in place), else by equal content (the same
 * prompt sent by two runs under fresh ids) within a short window. Each
 * side keeps its order; what pairs with nothing is marked as a gap. One
 * pass with maps: linear in the two surfaces.
 */
export function pairNodes(a: readonly NodeIdentity[], b: readonly NodeIdentity[]): PairedNode[] {
  const byId = new Map<string, number>();
  const byContent = new Map<string, number[]>();
  b.forEach((n, i) => {
    if (n.messageId !== null && !byId.has(n.messageId)) byId.set(n.messageId, i);
    if (n.content !== null) { const list = byContent.get(n.content); if (list) list.push(i); else byContent.set(n.content, [i]); }
  });
  const cursor = new Map<string, number>();
  const out: PairedNode[] = [];
  let last = -1;
  const takeUpTo = (k: number) => { for (let j = last + 1; j < k; j++) out.push({ a: null, b: j, match: 'b-only' }); };
  for (let i = 0; i < a.length; i++) {
    const n = a[i];
    let match = n.messageId !== null ? byId.get(n.messageId) : undefined;
    if (match !== undefined && match <= last) match = undefined;
    if (match === undefined && n.content !== null) {
      const list = byContent.get(n.content);
      if (list) {
        let p = cursor.get(n.content) ?? 0;
        while (p < list.length && list[p] <= last) p++;
        cursor.set(n.content, p);
        if (p < list.length && list[p] - last <= CONTENT_WINDOW) match = list[p];
      }
    }
    if (match === undefined) { out.push({ a: i, b: null, match: 'a-only' }); continue; }
    takeUpTo(match);
    out.push({ a: i, b: match, match: n.content === b[match].content ? 'same' : 'changed' });
    last = match;
  }
  takeUpTo(b.length);
  return out;
}

/** A projection unit at one side's cursor (the engine's ProjectionAtCursor, as read here). */
export interface UnitAtCursor {
  key: string;
  view: unknown;
  observedSeq: number;
  failure: { seq: number; message: string } | null;
}

export interface UnitComparison {
  key: string;
  status: 'same' | 'changed' | 'a-only' | 'b-only';
  a: UnitAtCursor | null;
  b: UnitAtCursor | null;
  /** Line diff of the two values as indented JSON, for `changed`; null when a limit stopped it. */
  diff: LinePart[] | null;
}

/** Every unit of either side, A's order then B's extra ones, with its value diff. */
export function compareUnits(a: readonly UnitAtCursor[], b: readonly UnitAtCursor[], limits: DiffLimits = {}): UnitComparison[] {
  const inB = new Map(b.map((u) => [u.key, u]));
  const inA = new Set(a.map((u) => u.key));
  const out: UnitComparison[] = [];
  for (const ua of a) {
    const ub = inB.get(ua.key) ?? null;
    if (!ub) { out.push({ key: ua.key, status: 'a-only', a: ua, b: null, diff: null }); continue; }
    const ta = JSON.stringify(ua.view, null, 2) ?? 'undefined';
    const tb = JSON.stringify(ub.view, null, 2) ?? 'undefined';
    out.push(ta === tb
      ? { key: ua.key, status: 'same', a: ua, b: ub, diff: null }
      : { key: ua.key, status: 'changed', a: ua, b: ub, diff: boundedLineDiff(ta, tb, limits) });
  }
  for (const ub of b) if (!inA.has(ub.key)) out.push({ key: ub.key, status: 'b-only', a: null, b: ub, diff: null });
  return out;
}

export interface ContextComparisonAt {
  /** The runtime-context snapshot in force on each side (null: none yet). */
  aSeq: number | null;
  bSeq: number | null;
  /** A's snapshot → B's, by section (prompt-and-requests §4.4); null when neither side has one. */
  diff: SnapshotDiff | null;
}

/** The two snapshots in force, diffed A → B (a side with none counts as empty). */
export function compareContexts(a: { seq: number; snapshot: SnapshotLike } | null, b: { seq: number; snapshot: SnapshotLike } | null, limits: DiffLimits = {}): ContextComparisonAt {
  if (!a && !b) return { aSeq: null, bSeq: null, diff: null };
  const empty: SnapshotLike = { sections: [] };
  return { aSeq: a?.seq ?? null, bSeq: b?.seq ?? null, diff: diffSnapshots(a?.snapshot, b?.snapshot ?? empty, limits) };
}
