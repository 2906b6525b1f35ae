import type { Message } from '../messages/types.ts';
import { boundedLineDiff, diffSnapshots, type DiffLimits, type LinePart, type SnapshotDiff, type SnapshotLike } from '../prompt/context-diff.ts';
import { contentHash } from '../requests/hash.ts';
import type { ProjectionFailure } from '../projections/types.ts';

/**
 * The side-by-side panels of a comparison at two cursors (docs/compare.md): the
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
 * Strings as small integers (0, 1, 2…) for one comparison: each side's
 * message ids and content hashes are interned once per node, so pairing two
 * surfaces indexes arrays instead of hashing tens of thousands of strings at
 * every cursor step (it took 55 ms a step at the end of two 1M-event logs).
 */
export class KeyTable {
  private readonly ids = new Map<string, number>();

  /** The key's number (-1 for null: no id, or no message). */
  of(key: string | null): number {
    if (key === null) return -1;
    let id = this.ids.get(key);
    if (id === undefined) this.ids.set(key, (id = this.ids.size));
    return id;
  }

  get size(): number {
    return this.ids.size;
  }
}

/** One side's surface as the pairing reads it: each node's interned message id and content (-1: none). */
export interface SurfaceKeys {
  ids: Int32Array;
  contents: Int32Array;
}

const MATCH_CODES: readonly NodePairing[] = ['same', 'changed', 'a-only', 'b-only'];

/** The pairing's rows as columns: node positions on each side (-1: none) and each row's `NodePairing` code. */
export interface PairedRows {
  length: number;
  a: Int32Array;
  b: Int32Array;
  match: Uint8Array;
  /** Rows that pair the same message. */
  same: number;
}

/** Row `i` of the pairing as an object. */
export function pairedRow(rows: PairedRows, i: number): PairedNode {
  const a = rows.a[i];
  const b = rows.b[i];
  return { a: a < 0 ? null : a, b: b < 0 ? null : b, match: MATCH_CODES[rows.match[i]] };
}

/**
 * Nodes paired in order: by message id first (identity: a fork's inherited
 * messages, a message rewritten in place), else by equal content (the same
 * prompt sent by two runs under fresh ids) within a short window. Each
 * side keeps its order; what pairs with nothing is marked as a gap. One
 * pass over arrays indexed by key (`keyCount`: the table's size): linear in
 * the two surfaces, with no string hashed.
 */
export function pairKeys(a: SurfaceKeys, b: SurfaceKeys, keyCount: number): PairedRows {
  const na = a.ids.length;
  const nb = b.ids.length;
  // B's first node with each id, and its nodes of each content as a chain in order (head, then next).
  const firstById = new Int32Array(keyCount).fill(-1);
  const head = new Int32Array(keyCount).fill(-1);
  const next = new Int32Array(nb);
  for (let j = nb - 1; j >= 0; j--) {
    const id = b.ids[j];
    if (id >= 0) firstById[id] = j;
    const c = b.contents[j];
    if (c >= 0) { next[j] = head[c]; head[c] = j; } else next[j] = -1;
  }
  const rows: PairedRows = { length: 0, a: new Int32Array(na + nb), b: new Int32Array(na + nb), match: new Uint8Array(na + nb), same: 0 };
  const push = (i: number, j: number, code: number) => {
    const r = rows.length++;
    rows.a[r] = i;
    rows.b[r] = j;
    rows.match[r] = code;
    if (code === 0) rows.same++;
  };
  let last = -1;
  const takeUpTo = (k: number) => { for (let j = last + 1; j < k; j++) push(-1, j, 3); };
  for (let i = 0; i < na; i++) {
    const id = a.ids[i];
    let match = id >= 0 ? firstById[id] : -1;
    if (match <= last) match = -1;
    const c = a.contents[i];
    if (match < 0 && c >= 0) {
      // `head` doubles as each content's cursor: the chain's nodes at or before `last` are passed for good.
      let p = head[c];
      while (p >= 0 && p <= last) p = next[p];
      head[c] = p;
      if (p >= 0 && p - last <= CONTENT_WINDOW) match = p;
    }
    if (match < 0) { push(i, -1, 2); continue; }
    takeUpTo(match);
    push(i, match, c === b.contents[match] ? 0 : 1);
    last = match;
  }
  takeUpTo(nb);
  return rows;
}

/** `pairKeys` for node identities as strings. */
export function pairNodes(a: readonly NodeIdentity[], b: readonly NodeIdentity[]): PairedNode[] {
  const table = new KeyTable();
  const keysOf = (nodes: readonly NodeIdentity[]): SurfaceKeys => ({ ids: Int32Array.from(nodes, (n) => table.of(n.messageId)), contents: Int32Array.from(nodes, (n) => table.of(n.content)) });
  const ka = keysOf(a);
  const kb = keysOf(b);
  const rows = pairKeys(ka, kb, table.size);
  return Array.from({ length: rows.length }, (_, i) => pairedRow(rows, i));
}

/** A projection unit at one side's cursor (the engine's ProjectionAtCursor, as read here). */
export interface UnitAtCursor {
  key: string;
  view: unknown;
  observedSeq: number;
  failure: Pick<ProjectionFailure, 'seq' | 'message' | 'kind'> | null;
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
  /** A's snapshot → B's, by section (dsh-log-rules P4.4); null when neither side has one. */
  diff: SnapshotDiff | null;
}

/** The two snapshots in force, diffed A → B (a side with none counts as empty). */
export function compareContexts(a: { seq: number; snapshot: SnapshotLike } | null, b: { seq: number; snapshot: SnapshotLike } | null, limits: DiffLimits = {}): ContextComparisonAt {
  if (!a && !b) return { aSeq: null, bSeq: null, diff: null };
  const empty: SnapshotLike = { sections: [] };
  return { aSeq: a?.seq ?? null, bSeq: b?.seq ?? null, diff: diffSnapshots(a?.snapshot, b?.snapshot ?? empty, limits) };
}
