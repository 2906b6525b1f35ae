import type { Replacement } from '../surface/types.ts';
import { SURFACE_CHANGE } from './navigate.ts';
import { countAtOrBelow } from '../util/sorted.ts';

/**
 * Context membership (issue #19): every node that was ever on the surface as
 * a bar over event indexes [enter, leave), on a row such that at every event
 * the rows of the nodes then on the surface increase in surface order.
 *
 * Rows are reused, so the lane is as short as the order allows:
 * - an append takes the row after the surface's last node (0 on an empty one);
 * - a replace's node takes the row of the first node it shadows.
 * Both keep the invariant "rows strictly increase along the surface": the new
 * last row exceeds every live row; the replacing row lies between the node
 * before the run and the node after it (the run's first row is ≤ its last,
 * which is < the next live row). No two bars share a row at one event: a row
 * taken by an append is above every live row, and a replacing node takes its
 * row at the very event that frees it (intervals are half-open). So a vertical
 * line at event i crosses exactly the surface after i, top to bottom in order.
 */
export interface Membership {
  /** Nodes ever on the surface, numbered in the order they entered (so `enter` is ascending). */
  nodes: number;
  /** The node's event seq. */
  seq: Float64Array;
  /** Event index that put the node on the surface (its append, or the replace it is). */
  enter: Uint32Array;
  /** Event index of the replace that shadowed it, or the event count (still on the surface at the end). */
  leave: Uint32Array;
  row: Uint32Array;
  /** Highest row + 1. */
  rows: number;
  /** One per committed replace: its event index, its node, and its shadowed nodes (`shadowed[from[k]..from[k+1])`). */
  links: { at: Uint32Array; node: Uint32Array; from: Uint32Array; shadowed: Uint32Array };
  /** Event indexes that changed membership (append or replace), ascending: between two of them the crossing set is the same. */
  changes: Uint32Array;
  /** False when a replace had no matching record (a partial summary): bars after it may be wrong. */
  complete: boolean;
}

export interface MembershipInput {
  seq: ArrayLike<number>;
  surfaceChange: ArrayLike<number>;
  count: number;
  replacements: readonly Pick<Replacement, 'seq' | 'shadowedSeqs' | 'index'>[];
}

export function buildMembership({ seq, surfaceChange, count, replacements }: MembershipInput): Membership {
  const n = Math.min(count, surfaceChange.length, seq.length);
  let changeCount = 0;
  let replaceCount = 0;
  for (let i = 0; i < n; i++) {
    const c = surfaceChange[i];
    if (c === SURFACE_CHANGE.append || c === SURFACE_CHANGE.replace) changeCount++;
    if (c === SURFACE_CHANGE.replace) replaceCount++;
  }
  let shadowTotal = 0;
  for (const r of replacements) shadowTotal += r.shadowedSeqs.length;

  const nodeSeq = new Float64Array(changeCount);
  const enter = new Uint32Array(changeCount);
  const leave = new Uint32Array(changeCount).fill(count);
  const row = new Uint32Array(changeCount);
  const changes = new Uint32Array(changeCount);
  const at = new Uint32Array(replaceCount);
  const linkNode = new Uint32Array(replaceCount);
  const from = new Uint32Array(replaceCount + 1);
  const shadowed = new Uint32Array(shadowTotal);

  // Replaces commit in log order, as the records are kept; a lookup by seq only if they ever disagree.
  let next = 0;
  let bySeq: Map<number, MembershipInput['replacements'][number]> | null = null;
  const recordOf = (s: number) => {
    if (replacements[next]?.seq === s) return replacements[next++];
    bySeq ??= new Map(replacements.map((r) => [r.seq, r]));
    return bySeq.get(s);
  };

  /** Node ids in surface order (a splice per replace: memmove-fast even at 50k nodes). */
  const live: number[] = [];
  let nodes = 0;
  let links = 0;
  let shadowCount = 0;
  let rows = 0;
  let complete = true;
  for (let i = 0; i < n; i++) {
    const c = surfaceChange[i];
    if (c !== SURFACE_CHANGE.append && c !== SURFACE_CHANGE.replace) continue;
    const id = nodes++;
    nodeSeq[id] = seq[i];
    enter[id] = i;
    changes[id] = i;
    if (c === SURFACE_CHANGE.append) {
      row[id] = live.length ? row[live[live.length - 1]] + 1 : 0;
      live.push(id);
    } else {
      const record = recordOf(seq[i]);
      const k = record?.index ?? -1;
      const run = record?.shadowedSeqs ?? [];
      // The fold never plans an empty run (both endpoints are live nodes, start ≤ end).
      const fits = record !== undefined && run.length > 0 && k >= 0 && k + run.length <= live.length
        && run.every((s, j) => nodeSeq[live[k + j]] === s);
      if (!fits) {
        // No record to go by: keep the bar (appended) and say the picture is incomplete.
        complete = false;
        row[id] = live.length ? row[live[live.length - 1]] + 1 : 0;
        live.push(id);
      } else {
        const gone = live.splice(k, run.length, id);
        row[id] = row[gone[0]];
        at[links] = i;
        linkNode[links] = id;
        from[links] = shadowCount;
        for (const g of gone) { leave[g] = i; shadowed[shadowCount++] = g; }
        links++;
      }
    }
    if (row[id] + 1 > rows) rows = row[id] + 1;
  }
  from[links] = shadowCount;
  return {
    nodes, seq: nodeSeq, enter, leave, row, rows, complete, changes,
    links: { at: at.subarray(0, links), node: linkNode.subarray(0, links), from: from.subarray(0, links + 1), shadowed: shadowed.subarray(0, shadowCount) },
  };
}

/** How many entries of an ascending array are ≤ `i` (the shared count, under the name the lane reads). */
export const countAtOrBefore = countAtOrBelow;

/** The nodes on the surface after event `i` (those whose bar a line at i crosses), top row first. */
export function crossedAt(m: Membership, i: number): Uint32Array {
  const entered = countAtOrBefore(m.enter, i);
  const byRow = new Int32Array(m.rows).fill(-1);
  let n = 0;
  for (let k = 0; k < entered; k++) {
    if (m.leave[k] > i) { byRow[m.row[k]] = k; n++; }
  }
  const out = new Uint32Array(n);
  let j = 0;
  for (let r = 0; r < m.rows && j < n; r++) if (byRow[r] >= 0) out[j++] = byRow[r];
  return out;
}

/** The node drawn at `row` at event `i`, or -1 (a hover's question). */
export function nodeAt(m: Membership, i: number, row: number): number {
  const entered = countAtOrBefore(m.enter, i);
  for (let k = entered - 1; k >= 0; k--) if (m.row[k] === row && m.leave[k] > i) return k;
  return -1;
}
