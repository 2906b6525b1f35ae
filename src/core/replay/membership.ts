import type { Replacement } from '../surface/types.ts';
import { SURFACE_CHANGE } from './navigate.ts';
import { countAtOrBelow } from '../util/sorted.ts';
import { grownTo } from '../util/typed.ts';

/**
 * Context membership (docs/open-and-navigate.md): every node that was ever on the surface as
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

export function buildMembership(input: MembershipInput): Membership {
  return new MembershipBuilder().add(input);
}

/**
 * Membership made as a log's events arrive: `add` reads the events past
 * those it has read (a loading or followed log's rows only grow), so a
 * longer log costs its new events, not a walk of every one again.
 * The Membership it returns views its arrays, which later adds write past
 * (and set a live node's `leave` in): use the newest one.
 */
export class MembershipBuilder {
  private nodeSeq = new Float64Array(0);
  private enter = new Uint32Array(0);
  private leave = new Uint32Array(0);
  private row = new Uint32Array(0);
  private changes = new Uint32Array(0);
  private at = new Uint32Array(0);
  private linkNode = new Uint32Array(0);
  private from = new Uint32Array(1);
  private shadowed = new Uint32Array(0);
  /** Node ids in surface order (a splice per replace: memmove-fast even at 50k nodes). */
  private readonly live: number[] = [];
  private nodes = 0;
  private links = 0;
  private shadowCount = 0;
  private rows = 0;
  private complete = true;
  /** Events read so far. */
  private read = 0;
  /** Replace records used so far: they commit in log order, as the records are kept. */
  private next = 0;

  add({ seq, surfaceChange, count, replacements }: MembershipInput): Membership {
    const n = Math.min(count, surfaceChange.length, seq.length);
    let changeCount = 0;
    let replaceCount = 0;
    for (let i = this.read; i < n; i++) {
      const c = surfaceChange[i];
      if (c === SURFACE_CHANGE.append || c === SURFACE_CHANGE.replace) changeCount++;
      if (c === SURFACE_CHANGE.replace) replaceCount++;
    }
    let shadowTotal = 0;
    for (let k = this.next; k < replacements.length; k++) shadowTotal += replacements[k].shadowedSeqs.length;
    this.room(this.nodes + changeCount, this.links + replaceCount, this.shadowCount + shadowTotal);
    const { nodeSeq, enter, leave, row, changes, at, linkNode, from, shadowed, live } = this;

    // A lookup by seq only if the records ever disagree with the log's order.
    let bySeq: Map<number, MembershipInput['replacements'][number]> | null = null;
    const recordOf = (s: number) => {
      if (replacements[this.next]?.seq === s) return replacements[this.next++];
      bySeq ??= new Map(replacements.map((r) => [r.seq, r]));
      return bySeq.get(s);
    };

    for (let i = this.read; i < n; i++) {
      const c = surfaceChange[i];
      if (c !== SURFACE_CHANGE.append && c !== SURFACE_CHANGE.replace) continue;
      const id = this.nodes++;
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
          this.complete = false;
          row[id] = live.length ? row[live[live.length - 1]] + 1 : 0;
          live.push(id);
        } else {
          const gone = live.splice(k, run.length, id);
          row[id] = row[gone[0]];
          at[this.links] = i;
          linkNode[this.links] = id;
          from[this.links] = this.shadowCount;
          for (const g of gone) { leave[g] = i; shadowed[this.shadowCount++] = g; }
          this.links++;
        }
      }
      if (row[id] + 1 > this.rows) this.rows = row[id] + 1;
    }
    this.read = n;
    // A node still on the surface leaves at the end: the event count.
    for (const id of live) leave[id] = count;
    from[this.links] = this.shadowCount;
    const nodes = this.nodes;
    const links = this.links;
    return {
      nodes, seq: nodeSeq.subarray(0, nodes), enter: enter.subarray(0, nodes), leave: leave.subarray(0, nodes), row: row.subarray(0, nodes),
      rows: this.rows, complete: this.complete, changes: changes.subarray(0, nodes),
      links: { at: at.subarray(0, links), node: linkNode.subarray(0, links), from: from.subarray(0, links + 1), shadowed: shadowed.subarray(0, this.shadowCount) },
    };
  }

  /** Arrays with room for this many nodes, links and shadowed entries (doubling, so a growing log copies each row a few times). */
  private room(nodes: number, links: number, shadowedCount: number): void {
    const fit = <T extends Float64Array | Uint32Array>(a: T, need: number): T => (need <= a.length ? a : grownTo(a, Math.max(need, a.length * 2)));
    this.nodeSeq = fit(this.nodeSeq, nodes);
    this.enter = fit(this.enter, nodes);
    this.leave = fit(this.leave, nodes);
    this.row = fit(this.row, nodes);
    this.changes = fit(this.changes, nodes);
    this.at = fit(this.at, links);
    this.linkNode = fit(this.linkNode, links);
    this.from = fit(this.from, links + 1);
    this.shadowed = fit(this.shadowed, shadowedCount);
  }
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
