// Section ids (P…) are those of docs/dsh-log-rules.md.
import type { LogEvent } from '../log/types.ts';
import type { SurfacePlan, SurfaceState } from '../surface/types.ts';
import { finding, type PromptFinding } from '../diagnostics/prompt-findings.ts';
import { readsOf, SURFACE_CHANGING_TYPES, type SurfaceVisitor } from '../surface/walk.ts';
import type { SurfaceLedger } from '../surface/ledger.ts';
import { firstWhere } from '../util/sorted.ts';
import { diffSnapshots, type DiffLimits, type SnapshotDiff } from './context-diff.ts';
import { checkSnapshot, isRuntimeContextEvent, readSnapshot, type ContextSnapshot } from './runtime-context.ts';

/**
 * The runtime-context snapshot stream (P4.4): every
 * owned snapshot in log order, whether it is still on the surface, its
 * harness baseline, why it was emitted, and diffs. Built in one walk; each
 * entry keeps its facts and section names, and reads its text and sections
 * again from the log when asked (a long session logs thousands).
 */
export interface SnapshotEntry extends ContextSnapshot {
  /** The section names, in order (kept, for lists and summaries). */
  names: readonly string[];
  turn: number | null;
  step: number | null;
  /** The previous owned snapshot in log order. */
  previousSeq: number | null;
  /** The last owned snapshot still on the surface just before this one (P4.4 "why"). */
  baselineSeq: number | null;
  /** The previous snapshot had been shadowed (e.g. compaction) before this one was logged. */
  reemittedAfterShadowing: boolean;
  /** Same text as the previous snapshot. */
  unchanged: boolean;
  /** On the final surface. */
  onSurface: boolean;
  /** The replace that shadowed it, if any. */
  shadowedBy: number | null;
  /** Section diff from the previous snapshot in log order. */
  diff: SnapshotDiff;
}

/** The effective runtime context changes: the last owned snapshot in surface order (P4.4). */
export interface EffectiveContextState {
  seq: number;
  snapshotSeq: number | null;
}

export class RuntimeContextStream implements SurfaceVisitor {
  /** Snapshots (user/message), step bounds, and every replace that may shadow one. */
  readonly reads = readsOf(SURFACE_CHANGING_TYPES, ['step/start', 'step/end']);
  readonly snapshots: SnapshotEntry[] = [];
  readonly effective: EffectiveContextState[] = [];
  readonly findings: PromptFinding[] = [];
  private readonly bySeq = new Map<number, SnapshotEntry>();
  private turn: number | null = null;
  private step: number | null = null;
  private inStep = false;
  private countInStep = 0;
  private baselineBefore: number | null = null;
  private previousShadowed = false;
  /** The last snapshot's text, for `unchanged` (only the last one is kept). */
  private lastText: string | undefined = undefined;
  /** Where entries read their event again: the walk's lookup until `finish` gives the load's. */
  private readonly source: SnapshotSource = { eventAt: () => undefined };

  /** `ledger` walks before this stream: it answers "what is on the surface" without a walk of the nodes. */
  constructor(private readonly v4: boolean, private readonly ledger: SurfaceLedger, private readonly limits: DiffLimits = {}) {}

  /** Chunk deltas are no snapshots and change no surface. */
  run(): void {}

  before(event: LogEvent, _state: SurfaceState, ctx: { eventAt(seq: number): LogEvent | undefined }): void {
    if (!isRuntimeContextEvent(event)) return;
    this.source.eventAt = ctx.eventAt;
    this.baselineBefore = this.ledger.lastRuntimeContext();
    const previous = this.snapshots.at(-1);
    this.previousShadowed = previous !== undefined && !this.ledger.isOnSurface(previous.seq);
  }

  after(event: LogEvent, _state: SurfaceState, plan: SurfacePlan): void {
    switch (event.type) {
      case 'step/start': this.turn = event.data?.turn; this.step = event.data?.step; this.inStep = true; this.countInStep = 0; break;
      case 'step/end': this.inStep = false; break;
    }
    if (isRuntimeContextEvent(event) && plan.kind !== 'reject') this.onSnapshot(event);
    // An append changes the effective snapshot only when it is one; a replace may shadow it.
    const last = this.effective.at(-1)?.snapshotSeq ?? null;
    let snapshotSeq = last;
    if (plan.kind === 'append' && isRuntimeContextEvent(event)) snapshotSeq = event.seq;
    else if (plan.kind === 'replace') snapshotSeq = this.ledger.lastRuntimeContext();
    if (snapshotSeq !== last) this.effective.push({ seq: event.seq, snapshotSeq });
  }

  private onSnapshot(event: LogEvent): void {
    const snapshot = readSnapshot(event);
    const previous = this.snapshots.at(-1);
    const seq = event.seq;
    for (const c of checkSnapshot(event, snapshot)) this.findings.push(finding(c.code, c.message, seq));
    if (snapshot.form === 'legacy' || !this.inStep) this.findings.push(finding('context.legacy', `runtime-context snapshot at seq ${seq} is ${snapshot.form === 'legacy' ? 'sectionless' : 'logged outside a step'}`, seq));
    if (this.v4 && snapshot.sourceShape === 'plugin') this.findings.push(finding('context.plugin-source-v4', `runtime-context snapshot at seq ${seq} has a {kind:"plugin"} source in a format-4 log`, seq));
    if (this.inStep && ++this.countInStep > 1) this.findings.push(finding('context.multiple-in-step', `step ${this.turn}.${this.step} logs more than one runtime-context snapshot (seq ${seq})`, seq));
    const unchanged = previous !== undefined && this.lastText === snapshot.text;
    if (unchanged && !this.previousShadowed) {
      this.findings.push(finding('context.unexplained-reemission', `runtime-context snapshot at seq ${seq} repeats seq ${previous.seq} although nothing shadowed it`, seq));
    }
    this.lastText = snapshot.text;
    const entry = new Snapshot(this.source, this.limits, previous, snapshot, {
      names: snapshot.sections.map((x) => this.intern(x.name)),
      turn: this.inStep ? this.turn : null,
      step: this.inStep ? this.step : null,
      previousSeq: previous?.seq ?? null,
      baselineSeq: this.baselineBefore,
      reemittedAfterShadowing: this.previousShadowed,
      unchanged,
    });
    this.snapshots.push(entry);
    this.bySeq.set(seq, entry);
  }

  /** One string per section name (thousands of snapshots repeat a few names). */
  private readonly names = new Map<string, string>();
  private intern(name: string): string {
    let n = this.names.get(name);
    if (n === undefined) this.names.set(name, (n = name));
    return n;
  }

  /** Fills the final on-surface status once the walk is done; `eventAt` is where entries read their text again. */
  finish(state: SurfaceState, eventAt: (seq: number) => LogEvent | undefined): void {
    this.source.eventAt = eventAt;
    const on = new Set(state.nodes);
    const shadowedBy = new Map<number, number>();
    for (const r of state.replacements) for (const s of r.shadowedSeqs) shadowedBy.set(s, r.seq);
    for (const s of this.snapshots) {
      s.onSurface = on.has(s.seq);
      s.shadowedBy = shadowedBy.get(s.seq) ?? null;
    }
  }

  snapshot(seq: number): SnapshotEntry | undefined {
    return this.bySeq.get(seq);
  }

  /** Any two snapshots the user picks, A → B. */
  compare(aSeq: number, bSeq: number): SnapshotDiff | undefined {
    const a = this.bySeq.get(aSeq);
    const b = this.bySeq.get(bSeq);
    return a && b ? diffSnapshots(a, b, this.limits) : undefined;
  }

  /** The effective runtime context after the event at `seq` (P4.4): a snapshot seq or null. */
  effectiveAt(seq: number): number | null {
    const k = firstWhere(this.effective.length, (i) => !(this.effective[i].seq <= seq)) - 1;
    return k < 0 ? null : this.effective[k].snapshotSeq;
  }
}

interface SnapshotSource {
  eventAt(seq: number): LogEvent | undefined;
}

type SnapshotFacts = Pick<SnapshotEntry, 'names' | 'turn' | 'step' | 'previousSeq' | 'baselineSeq' | 'reemittedAfterShadowing' | 'unchanged'>;

/** One snapshot: facts kept, text and sections read from its event when asked, the diff made when asked. */
class Snapshot implements SnapshotEntry {
  readonly seq: number;
  readonly sourceShape: ContextSnapshot['sourceShape'];
  readonly form: ContextSnapshot['form'];
  readonly heuristic: boolean;
  readonly names: readonly string[];
  readonly turn: number | null;
  readonly step: number | null;
  readonly previousSeq: number | null;
  readonly baselineSeq: number | null;
  readonly reemittedAfterShadowing: boolean;
  readonly unchanged: boolean;
  onSurface = true;
  shadowedBy: number | null = null;
  private diffMemo: SnapshotDiff | undefined = undefined;

  constructor(
    private readonly source: SnapshotSource,
    private readonly limits: DiffLimits,
    private readonly previous: SnapshotEntry | undefined,
    snapshot: ContextSnapshot,
    facts: SnapshotFacts,
  ) {
    this.seq = snapshot.seq;
    this.sourceShape = snapshot.sourceShape;
    this.form = snapshot.form;
    this.heuristic = snapshot.heuristic;
    this.names = facts.names;
    this.turn = facts.turn;
    this.step = facts.step;
    this.previousSeq = facts.previousSeq;
    this.baselineSeq = facts.baselineSeq;
    this.reemittedAfterShadowing = facts.reemittedAfterShadowing;
    this.unchanged = facts.unchanged;
  }

  private read(): ContextSnapshot {
    const event = this.source.eventAt(this.seq);
    if (!event) throw new Error(`runtime-context snapshot at seq ${this.seq} is no longer readable`);
    return readSnapshot(event);
  }

  get text(): string | undefined {
    return this.read().text;
  }

  get sections(): ContextSnapshot['sections'] {
    return this.read().sections;
  }

  /** Section diff from the previous snapshot in log order. */
  get diff(): SnapshotDiff {
    return (this.diffMemo ??= diffSnapshots(this.previous, this.read(), this.limits));
  }

  /** The plain entry (field order as before: the snapshot, then the stream's facts). */
  toJSON(): SnapshotEntry {
    const { text, sections } = this.read();
    return {
      seq: this.seq, sourceShape: this.sourceShape, form: this.form, text, sections, heuristic: this.heuristic,
      names: this.names, turn: this.turn, step: this.step, previousSeq: this.previousSeq, baselineSeq: this.baselineSeq,
      reemittedAfterShadowing: this.reemittedAfterShadowing, unchanged: this.unchanged, onSurface: this.onSurface,
      shadowedBy: this.shadowedBy, diff: this.diff,
    };
  }
}

/** A snapshot entry as a plain object (for a message port). */
export function plainSnapshot(entry: SnapshotEntry): SnapshotEntry {
  return entry instanceof Snapshot ? entry.toJSON() : entry;
}
