import { firstWhere, positionOf } from '../util/sorted.ts';
import { crossedAt, type Membership } from './membership.ts';

/**
 * The crossing set (the nodes on the surface, top row first) by membership epoch: epoch `e` is the
 * state after the first `e` membership changes, so node `e - 1` is the last to have entered (node ids
 * number the changes). A step of the replay cursor moves the epoch by one or a few; rebuilding the set
 * from every node ever on the surface cost a long session's whole surface at each step,
 * while walking it from the last one costs the nodes that entered or left.
 */

/** Further than this many changes apart, the set is rebuilt rather than walked. */
export const WALK_MAX = 64;

/** A crossing set and the epoch it belongs to. */
export interface Crossing {
  epoch: number;
  nodes: Uint32Array;
}

/** The crossing set at `epoch`, walked from `near` when it is close (same membership), else rebuilt. */
export function crossingAt(m: Membership, epoch: number, near?: Crossing | null): Crossing {
  if (near && Math.abs(epoch - near.epoch) <= WALK_MAX) {
    let nodes: Uint32Array | null = near.nodes;
    for (let e = near.epoch; nodes && e < epoch; e++) nodes = enter(m, nodes, e);
    for (let e = near.epoch; nodes && e > epoch; e--) nodes = leave(m, nodes, e - 1);
    if (nodes) return { epoch, nodes };
  }
  return { epoch, nodes: epoch <= 0 ? new Uint32Array(0) : crossedAt(m, m.changes[epoch - 1]) };
}

/**
 * The rows whose crossing may differ between two epochs (inclusive), or null when they are further
 * apart than a walk goes: the rows of each node that entered or left between them, and of the run a
 * replace among them shadowed.
 */
export function rowsChangedBetween(m: Membership, a: number, b: number): { lo: number; hi: number } | null {
  if (Math.abs(a - b) > WALK_MAX) return null;
  let lo = Infinity;
  let hi = -1;
  for (let id = Math.min(a, b); id < Math.max(a, b); id++) {
    // A replace's row is its run's first: the run spans every row the change touched.
    const run = shadowedRun(m, id);
    lo = Math.min(lo, m.row[id]);
    hi = Math.max(hi, run ? m.row[run[run.length - 1]] : m.row[id]);
  }
  return hi < 0 ? { lo: 0, hi: -1 } : { lo, hi };
}

/** The nodes a replace node shadowed, in surface order, or null when the node is an append. */
function shadowedRun(m: Membership, id: number): Uint32Array | null {
  const { node, from, shadowed } = m.links;
  const k = positionOf(node, id);
  return k >= 0 ? shadowed.subarray(from[k], from[k + 1]) : null;
}

/** Where the first node on `row` or below it sits in a crossing set (rows increase along it). */
const positionOfRow = (m: Membership, nodes: Uint32Array, row: number): number => firstWhere(nodes.length, (j) => m.row[nodes[j]] >= row);

/** The set after node `id` enters: an append goes last, a replace takes its run's place. Null when the set does not hold what it should. */
function enter(m: Membership, nodes: Uint32Array, id: number): Uint32Array | null {
  const run = shadowedRun(m, id);
  if (!run) {
    const out = new Uint32Array(nodes.length + 1);
    out.set(nodes);
    out[nodes.length] = id;
    return out;
  }
  const at = positionOfRow(m, nodes, m.row[run[0]]);
  for (let j = 0; j < run.length; j++) if (nodes[at + j] !== run[j]) return null;
  const out = new Uint32Array(nodes.length - run.length + 1);
  out.set(nodes.subarray(0, at));
  out[at] = id;
  out.set(nodes.subarray(at + run.length), at + 1);
  return out;
}

/** The set before node `id` entered: an append leaves the end, a replace gives its place back to its run. */
function leave(m: Membership, nodes: Uint32Array, id: number): Uint32Array | null {
  const run = shadowedRun(m, id);
  if (!run) return nodes[nodes.length - 1] === id ? nodes.subarray(0, nodes.length - 1) : null;
  const at = positionOfRow(m, nodes, m.row[id]);
  if (nodes[at] !== id) return null;
  const out = new Uint32Array(nodes.length - 1 + run.length);
  out.set(nodes.subarray(0, at));
  out.set(run, at);
  out.set(nodes.subarray(at + 1), at + run.length);
  return out;
}
