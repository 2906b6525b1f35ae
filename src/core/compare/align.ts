/**
 * Alignment of two runs' model calls (docs/compare.md): by turn and step first,
 * then, inside a step, by request identity. A step only one run has is a
 * gap on the other side, never a shifted mismatch; so is an attempt only
 * one run made (a retry). Linear in the calls: one merge over the two step
 * sequences, and a few attempts compared inside each step.
 */

/** What the aligner reads of a call: where it stands and the identity of its request. */
export interface CallKey {
  turn: number;
  step: number;
  /** Identity of the whole request as compared (equal requests, equal keys). */
  identity: string;
}

/** One row: a call of each run (0-based indexes in `requests` order), or a gap on one side. */
export interface AlignedPair {
  a: number | null;
  b: number | null;
}

/** Consecutive calls of one (turn, step): the attempts of a step. */
interface StepGroup {
  /** Orders steps: a run whose turn/step numbering starts over gets a new epoch. */
  epoch: number;
  turn: number;
  step: number;
  first: number;
  /** One past the last call. */
  end: number;
}

function stepGroups(calls: readonly CallKey[]): StepGroup[] {
  const out: StepGroup[] = [];
  let epoch = 0;
  for (let i = 0; i < calls.length; i++) {
    const c = calls[i];
    const last = out[out.length - 1];
    if (last && last.turn === c.turn && last.step === c.step) { last.end = i + 1; continue; }
    // Numbering that goes back (a restored or concatenated log) starts a new epoch, so the merge stays ordered.
    if (last && (c.turn < last.turn || (c.turn === last.turn && c.step < last.step))) epoch++;
    out.push({ epoch, turn: c.turn, step: c.step, first: i, end: i + 1 });
  }
  return out;
}

function compareSteps(x: StepGroup, y: StepGroup): number {
  return x.epoch - y.epoch || x.turn - y.turn || x.step - y.step;
}

/** Above this many attempt pairs in one step, attempts pair by position only. */
const IDENTITY_SEARCH_LIMIT = 4096;

/**
 * The attempts of one step on both sides. Equal counts pair in order. Else
 * the fewer attempts pair with identical requests on the other side,
 * searched from the end (a retry resends the same request: the attempt
 * that settled the step pairs, the failed ones before it are the gaps);
 * failing that, the two lists pair from their ends.
 */
function pairAttempts(a: readonly CallKey[], ga: StepGroup, b: readonly CallKey[], gb: StepGroup, out: AlignedPair[]): void {
  const n = ga.end - ga.first;
  const m = gb.end - gb.first;
  if (n === m) {
    for (let k = 0; k < n; k++) out.push({ a: ga.first + k, b: gb.first + k });
    return;
  }
  const aShort = n < m;
  const short = aShort ? { calls: a, g: ga } : { calls: b, g: gb };
  const long = aShort ? { calls: b, g: gb } : { calls: a, g: ga };
  const partner = new Map<number, number>();
  if (n * m <= IDENTITY_SEARCH_LIMIT) {
    let limit = long.g.end;
    for (let s = short.g.end - 1; s >= short.g.first; s--) {
      let l = limit - 1;
      while (l >= long.g.first && long.calls[l].identity !== short.calls[s].identity) l--;
      if (l < long.g.first) { partner.clear(); break; }
      partner.set(l, s);
      limit = l;
    }
  }
  if (partner.size === 0) {
    const offset = (long.g.end - long.g.first) - (short.g.end - short.g.first);
    for (let k = short.g.first; k < short.g.end; k++) partner.set(long.g.first + offset + (k - short.g.first), k);
  }
  for (let l = long.g.first; l < long.g.end; l++) {
    const s = partner.get(l) ?? null;
    out.push(aShort ? { a: s, b: l } : { a: l, b: s });
  }
}

/** Every call of both runs, in order, each in exactly one row. */
export function alignCalls(a: readonly CallKey[], b: readonly CallKey[]): AlignedPair[] {
  const ga = stepGroups(a);
  const gb = stepGroups(b);
  const out: AlignedPair[] = [];
  let i = 0;
  let j = 0;
  while (i < ga.length || j < gb.length) {
    const order = i >= ga.length ? 1 : j >= gb.length ? -1 : compareSteps(ga[i], gb[j]);
    if (order === 0) {
      pairAttempts(a, ga[i++], b, gb[j++], out);
    } else if (order < 0) {
      for (let k = ga[i].first; k < ga[i].end; k++) out.push({ a: k, b: null });
      i++;
    } else {
      for (let k = gb[j].first; k < gb[j].end; k++) out.push({ a: null, b: k });
      j++;
    }
  }
  return out;
}
