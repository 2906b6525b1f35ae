// Section ids (J…) are those of docs/dsh-log-rules.md.
import { runMember, type PackedRun } from '../log/packed-rows.ts';
import type { LogEvent, SessionHeader } from '../log/types.ts';
import { coldRead, detachedCopy, restore, restoreFloor, viewCheckpoint, type ColdRead, type RestoreResult } from './cache.ts';
import { ChangeLog, stateAt, type Cell, type ChangeLogData } from './cell.ts';
import { auditChange, freezeState } from './purity.ts';
import { alsoReadsKind, coversKind, kindOf } from './reads.ts';
import { schemaFailureText, ViewVerdicts } from './view-verdicts.ts';
import type {
  AnyUnit, Generation, ProjectionChange, ProjectionCheckpoint, ProjectionFailure, ProjectionSnapshot, PurityFinding,
} from './types.ts';

export interface RegistryOptions {
  /** Fork-inherited prefix length; default header `seedLength ?? 0` (J5.1.4). */
  inheritedEventCount?: number;
  /** rc.8 publishes on every state change; the seed only when the view reference changes (J2.4). Default seed. */
  generation?: Generation;
  /** Freeze states and audit same-reference violations (J1.2, J5.3.5). Default true (dev/test). */
  purity?: boolean;
  /** Keep (seq, state) per change for time travel (J5.4). Default false. */
  history?: boolean;
  /**
   * Keep the events driven so a unit registered later can build lazily
   * (J2.3.2). Default true; a streaming load with every unit registered up
   * front turns it off so the registry holds no event.
   */
  keepEvents?: boolean;
  /**
   * Where time travel finds an event again by seq (a streaming load's store).
   * With it, history keeps a state only every HISTORY_EVERY changes and folds
   * the ones between again on demand; without it, every state is kept.
   */
  eventAt?: (seq: number) => LogEvent | undefined;
  /**
   * Publish change frames (`apply`'s result and the change feed), which needs
   * each changed state's view. Default true; a load that keeps only the
   * history turns it off and computes no view per change.
   */
  frames?: boolean;
}

/** With `eventAt`, one state kept per this many changes (a seek folds at most this many events again per unit). */
export const HISTORY_EVERY = 64;

/** What the app shows per unit at the current cursor (J5.2). */
export interface CellInfo {
  key: string;
  stateVersion: number;
  hostOnly: boolean;
  state: unknown;
  view: unknown;
  observedSeq: number;
  failure: ProjectionFailure | null;
}

type Listener = (change: ProjectionChange) => void;

/**
 * A registry's recorded history as plain data (structured-cloneable): what a
 * helper worker that drove the units sends back, so the load's own registry
 * continues from it (the units fold on another core: docs/long-sessions.md).
 */
export interface RegistryHistory {
  /** Events driven, and the seq of the last one. */
  driven: number;
  lastSeq: number;
  cells: { key: string; stateVersion: number; state: unknown; observedSeq: number; failure: ProjectionFailure | null; log: ChangeLogData }[];
}

interface Registration {
  unit: AnyUnit;
  cell: Cell | null;
  refs: number;
}

/**
 * The projection registry for one session (J2): one cell per unit,
 * driven one committed event at a time in registration order. Cells build
 * lazily over the events seen so far (a unit enabled late, J2.3.2). A unit
 * whose fold throws records the failure at that seq and stops; every other
 * unit keeps going (J2.7: DSH's registry skips the later units for that
 * event; the app isolates the one that threw).
 */
export class ProjectionRegistry {
  readonly header: SessionHeader | null;
  readonly inheritedEventCount: number;
  readonly purityFindings: PurityFinding[] = [];
  private readonly registrations = new Map<string, Registration>();
  private readonly listeners = new Set<Listener>();
  private readonly events: LogEvent[] = [];
  /** Without the purity audit, an event goes only to the units that read its type (made per type on first use). */
  private readonly readerSets = new Map<string, Set<Registration>>();
  /** Units whose current state reads more than their `reads`, with what (ProjectionUnit.alsoReads). */
  private readonly eager = new Map<Registration, 'all' | readonly string[]>();
  private lastDriven = -1;
  private driven = 0;
  private readonly options: Required<Omit<RegistryOptions, 'inheritedEventCount' | 'eventAt'>>;
  private readonly eventAt: ((seq: number) => LogEvent | undefined) | undefined;
  /** Per unit, its views' schema verdicts by change (made on the first question). */
  private readonly viewVerdicts = new Map<string, ViewVerdicts>();


  constructor(header: SessionHeader | null, units: readonly AnyUnit[] = [], options: RegistryOptions = {}) {
    this.header = header;
    this.inheritedEventCount = options.inheritedEventCount ?? header?.seedLength ?? 0;
    this.options = { generation: options.generation ?? 'seed', purity: options.purity ?? true, history: options.history ?? false, keepEvents: options.keepEvents ?? true, frames: options.frames ?? true };
    this.eventAt = options.eventAt;
    for (const unit of units) this.register(unit);
  }

  /** Seq of the last event driven; -1 before any (J2.5 `asOfSeq`). */
  get lastSeq(): number {
    return this.lastDriven;
  }

  /** The event types some unit reads; undefined when a unit reads (or may read) every event. */
  get reads(): ReadonlySet<string> | undefined {
    const out = new Set<string>();
    for (const { unit } of this.registrations.values()) {
      if (!unit.reads || unit.alsoReads) return undefined;
      for (const t of unit.reads) out.add(t);
    }
    return out;
  }

  /** Whether some unit reads events of `kind` by its `reads` (whatever its state). */
  readsKind(kind: string): boolean {
    return this.readerSetOf(kind).size > 0;
  }

  /** Whether an event of `kind` would reach no unit now: none reads it, and no state reads more for now (alsoReads). */
  ignores(kind: string): boolean {
    return this.eager.size === 0 && !this.options.purity && !this.readsKind(kind);
  }

  /** Registered units in drive order. */
  get units(): AnyUnit[] {
    return [...this.registrations.values()].map((r) => r.unit);
  }

  /**
   * Registers a unit (J2.2). The same key at the same version is shared and
   * counted (the first definition stays); another version throws. The
   * disposer removes the key with its cell once the last registrant leaves.
   */
  register(unit: AnyUnit): () => void {
    const v = unit.stateVersion;
    if (!Number.isSafeInteger(v) || v < 0) {
      throw new Error(`session projection ${JSON.stringify(unit.key)} stateVersion must be a non-negative integer, got ${String(v)}`);
    }
    const existing = this.registrations.get(unit.key);
    if (existing) {
      if (existing.unit.stateVersion !== v) {
        throw new Error(`session projection key ${JSON.stringify(unit.key)} is already registered at stateVersion ${existing.unit.stateVersion}; refusing to share it with stateVersion ${v}`);
      }
      existing.refs += 1;
    } else {
      this.registrations.set(unit.key, { unit, cell: null, refs: 1 });
      this.readerSets.clear();
    }
    let disposed = false;
    return () => {
      const live = this.registrations.get(unit.key);
      if (disposed || !live) return;
      disposed = true;
      if (--live.refs === 0) {
        this.registrations.delete(unit.key);
        this.viewVerdicts.delete(unit.key);
        this.readerSets.clear();
      }
    };
  }

  /** Change feed (J2.6): `(key, view, seq)` per published change. */
  onChanged(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /**
   * Drives one committed event through every unit (J2.4); returns the frames
   * it published. A unit that does not read the event's type returns its
   * state unchanged (its `reads` promise, held by a test), so without the
   * purity audit — which must see every event — only the readers are called;
   * every other unit's watermark moves all the same (see `watermark`).
   */
  apply(event: LogEvent): ProjectionChange[] {
    const frames: ProjectionChange[] = [];
    if (this.driven === 0) this.buildCells();
    const kind = kindOf(event);
    for (const reg of this.readersOf(kind)) {
      const frame = this.stepUnit(reg, event);
      if (frame) frames.push(frame);
    }
    // Units whose state reads more for now (ProjectionUnit.alsoReads), when the kind is not in their `reads`.
    if (this.eager.size && !this.options.purity) {
      // (No copy of the map: stepUnit only updates or deletes the entry being visited.)
      const readers = this.readerSetOf(kind);
      for (const [reg, also] of this.eager) {
        if (!readers.has(reg) && (also === 'all' || coversKind(also, kind))) {
          const frame = this.stepUnit(reg, event);
          if (frame) frames.push(frame);
        }
      }
    }
    if (this.options.keepEvents) this.events.push(event);
    this.lastDriven = event.seq;
    this.driven++;
    for (const frame of frames) for (const listener of this.listeners) listener(frame);
    return frames;
  }

  /**
   * A packed run of chunk deltas (streaming load). A unit that does not read
   * assistant/chunk only moves its watermark; the others get each member.
   * With listeners or kept events it is exactly `apply` per member.
   */
  applyRun(run: PackedRun): void {
    const n = run.pieces.length;
    if (this.options.keepEvents || this.listeners.size > 0) {
      for (let k = 0; k < n; k++) this.apply(runMember(run, k));
      return;
    }
    const lastSeq = run.seq0 + n - 1;
    if (this.driven === 0) this.buildCells();
    let members: LogEvent[] | null = null;
    // Members of a run differ in text and time only: one kind for all of them.
    const kind = kindOf(runMember(run, 0));
    const readers = this.readerSetOf(kind);
    for (const reg of this.registrations.values()) {
      const cell = this.cellOf(reg);
      // `unitReads`, with the `reads` half looked up once per kind.
      const byReads = readers.has(reg);
      // A unit that does not read these deltas only moves its watermark (`watermark` derives it).
      if (!byReads && !alsoReadsKind(reg.unit, cell.state, kind)) continue;
      members ??= run.pieces.map((_piece, k) => runMember(run, k));
      for (const member of members) {
        // Members are consecutive: the one before a member is its predecessor, the first's the event before the run.
        this.stepUnit(reg, member, cell, member.seq > run.seq0 ? member.seq - 1 : this.lastDriven);
        // Its state may stop reading them (sessionStats after a step's first token): the rest would leave it as it is.
        if (!byReads && !alsoReadsKind(reg.unit, cell.state, kind)) break;
      }
    }
    this.lastDriven = lastSeq;
    this.driven += n;
  }

  /** `step` for a registered unit, keeping `eager` in step with its alsoReads. */
  private stepUnit(reg: Registration, event: LogEvent, cell = this.cellOf(reg), previousSeq = this.lastDriven): ProjectionChange | null {
    const frame = this.step(reg.unit, cell, event, this.options.frames, previousSeq);
    const alsoReads = reg.unit.alsoReads;
    if (alsoReads) {
      const also = cell.failure?.kind === 'threw' ? null : alsoReads(cell.state);
      if (also) this.eager.set(reg, also);
      else this.eager.delete(reg);
    }
    return frame;
  }

  /** Every unit's cell before the first event: a unit not called for an event still has its state from the start. */
  private buildCells(): void {
    for (const reg of this.registrations.values()) this.cellOf(reg);
  }

  /** The units whose `reads` cover `kind` (with the purity audit too), as a set: the eager units and runs check against it. */
  private readerSetOf(kind: string): ReadonlySet<Registration> {
    let set = this.readerSets.get(kind);
    if (!set) this.readerSets.set(kind, (set = new Set([...this.registrations.values()].filter((r) => !r.unit.reads || coversKind(r.unit.reads, kind)))));
    return set;
  }

  private readersOf(kind: string): Iterable<Registration> {
    // Listed by `reads`; while a state reads more (alsoReads) the unit is in `eager` too.
    return this.options.purity ? this.registrations.values() : this.readerSetOf(kind);
  }

  /**
   * A cell's watermark (J2.1 observedSeq): the last event driven, for every
   * unit that has not thrown — whether or not it was called for that event.
   */
  private watermark(cell: Cell): number {
    return cell.failure?.kind === 'threw' ? cell.observedSeq : this.lastDriven;
  }

  /** Every cell's state, watermark, failure and change log (needs `history`, no kept events). */
  exportHistory(): RegistryHistory {
    if (!this.options.history || this.options.keepEvents) throw new Error('exportHistory needs a registry with history and without kept events');
    this.buildCells();
    return {
      driven: this.driven,
      lastSeq: this.lastDriven,
      cells: [...this.registrations.values()].map(({ unit, cell }) => ({
        key: unit.key, stateVersion: unit.stateVersion, state: cell!.state, observedSeq: cell!.observedSeq, failure: cell!.failure, log: cell!.history!.toData(),
      })),
    };
  }

  /**
   * Continues from another registry's history, as if this one had driven
   * those events (before any event of its own): the same units, in the same
   * order and versions, or it throws.
   */
  importHistory(history: RegistryHistory): void {
    if (this.driven !== 0) throw new Error('importHistory on a registry that has driven events');
    if (!this.options.history || this.options.keepEvents) throw new Error('importHistory needs a registry with history and without kept events');
    const regs = [...this.registrations.values()];
    const mismatch = history.cells.length !== regs.length || history.cells.some((c, i) => c.key !== regs[i].unit.key || c.stateVersion !== regs[i].unit.stateVersion);
    if (mismatch) throw new Error(`projection history of units [${history.cells.map((c) => c.key).join(', ')}] does not fit units [${regs.map((r) => r.unit.key).join(', ')}]`);
    this.viewVerdicts.clear();
    history.cells.forEach((c, i) => {
      const reg = regs[i];
      reg.cell = { state: c.state, observedSeq: c.observedSeq, views: [undefined, undefined], failure: c.failure, history: ChangeLog.fromData(c.log) };
      const also = c.failure?.kind === 'threw' ? null : reg.unit.alsoReads?.(c.state);
      if (also) this.eager.set(reg, also);
    });
    this.driven = history.driven;
    this.lastDriven = history.lastSeq;
  }

  applyAll(events: readonly LogEvent[]): void {
    for (const event of events) this.apply(event);
  }

  /** One unit's cell as the app shows it; undefined when the key is not registered. */
  cell(key: string): CellInfo | undefined {
    const reg = this.registrations.get(key);
    if (!reg) return undefined;
    const cell = this.cellOf(reg);
    return {
      key,
      stateVersion: reg.unit.stateVersion,
      hostOnly: reg.unit.hostOnly === true,
      state: cell.state,
      view: reg.unit.view(cell.state),
      observedSeq: this.watermark(cell),
      failure: cell.failure,
    };
  }

  /**
   * One consistent cut (J2.5) over the wire units (all, or `keys`). Each
   * value passes its view schema; a value that does not is still returned
   * and the key gets a `schema` failure.
   */
  snapshot(keys?: readonly string[]): ProjectionSnapshot {
    const values: Record<string, unknown> = {};
    const failures: Record<string, ProjectionFailure> = {};
    for (const reg of this.registrations.values()) {
      const cell = this.cellOf(reg);
      const { unit } = reg;
      if (cell.failure) failures[unit.key] = cell.failure;
      if (unit.hostOnly || (keys && !keys.includes(unit.key))) continue;
      const value = unit.view(cell.state);
      values[unit.key] = value;
      if (cell.failure || !unit.viewSchema) continue;
      // With history the failure is dated where its failing run began; without, at the read (the watermark).
      const failed = cell.history ? this.schemaFailureAt(unit.key, this.lastSeq, cell.state) : schemaFailureOf(unit, value, this.watermark(cell));
      if (failed) failures[unit.key] = failed;
    }
    return Object.keys(failures).length ? { asOfSeq: this.lastSeq, values, failures } : { asOfSeq: this.lastSeq, values };
  }

  /**
   * The unit's view at `seq` against its schema (needs `history`): null when it passes (or the unit has
   * no schema), else a `schema` failure dated at the change where the failing run began (J5.2).
   * `state`: the unit's state after `seq` when the caller has it (it is not folded again).
   */
  schemaFailureAt(key: string, seq: number, state?: unknown): ProjectionFailure | null {
    const reg = this.registrations.get(key);
    const history = reg ? this.cellOf(reg).history : null;
    if (!reg || !history || !reg.unit.viewSchema || reg.unit.hostOnly) return null;
    let verdicts = this.viewVerdicts.get(key);
    if (!verdicts) {
      const { unit } = reg;
      verdicts = new ViewVerdicts(unit, history, () => unit.init(this.header, this.inheritedEventCount), this.eventAt ?? noEvent);
      this.viewVerdicts.set(key, verdicts);
    }
    return verdicts.failureAt(seq, state);
  }

  /** A unit's change log (needs `history`): change seqs and time travel, without copies. */
  changeLog(key: string): ChangeLog | null {
    const reg = this.registrations.get(key);
    return reg ? this.cellOf(reg).history : null;
  }

  /** Seqs at which a unit's state changed (needs `history`): the timeline's change strip. */
  changeSeqs(key: string): number[] {
    const reg = this.registrations.get(key);
    const history = reg ? this.cellOf(reg).history : null;
    return history ? Array.from(history.changeSeqs()) : [];
  }

  /** Of those, the seqs that changed the value (`same` false) or wrote an equal one again (`same` true). */
  changeSeqsWhere(key: string, same: boolean): Uint32Array | Float64Array {
    const reg = this.registrations.get(key);
    return (reg ? this.cellOf(reg).history?.seqsWhere(same) : undefined) ?? new Uint32Array(0);
  }

  /** The values as of `seq` (≤ lastSeq), from recorded history (J5.4). */
  snapshotAt(seq: number): ProjectionSnapshot {
    const values: Record<string, unknown> = {};
    for (const reg of this.registrations.values()) {
      if (reg.unit.hostOnly) continue;
      values[reg.unit.key] = reg.unit.view(this.stateAt(reg.unit.key, seq));
    }
    return { asOfSeq: Math.min(seq, this.lastSeq), values };
  }

  stateAt(key: string, seq: number): unknown {
    const reg = this.registrations.get(key);
    if (!reg) return undefined;
    const { unit } = reg;
    return stateAt(this.cellOf(reg), unit.init(this.header, this.inheritedEventCount), seq, (state, event) => unit.apply(state, event), this.eventAt ?? noEvent);
  }

  /** Detached rows for every unit, host-only included (J3.2). */
  checkpoint(): ProjectionCheckpoint {
    const rows: ProjectionCheckpoint = {};
    for (const reg of this.registrations.values()) {
      const cell = this.cellOf(reg);
      rows[reg.unit.key] = { ver: reg.unit.stateVersion, seq: this.watermark(cell), val: detachedCopy(cell.state) };
    }
    return rows;
  }

  restoreFloor(cp: ProjectionCheckpoint): number | undefined {
    return restoreFloor(this.units, cp);
  }

  restore(cp: ProjectionCheckpoint, events: readonly LogEvent[], baseSeq: number): RestoreResult {
    return restore(this.units, this.header, this.inheritedEventCount, cp, events, baseSeq);
  }

  viewCheckpoint(cp: ProjectionCheckpoint): Record<string, unknown> {
    return viewCheckpoint(this.units, cp);
  }

  /** What a cold read of `log` with these cached rows would do (J3.6). */
  coldRead(cp: ProjectionCheckpoint, log: readonly LogEvent[]): ColdRead {
    return coldRead(this.units, this.header, this.inheritedEventCount, cp, log);
  }

  /** Lazy build (J2.3.2): fold init over every event seen so far, silently. */
  private cellOf(reg: Registration): Cell {
    if (reg.cell) return reg.cell;
    const state = reg.unit.init(this.header, this.inheritedEventCount);
    const cell: Cell = {
      state: this.options.purity ? freezeState(state) : state,
      observedSeq: -1,
      views: [undefined, undefined],
      failure: null,
      history: this.options.history ? new ChangeLog(this.eventAt ? HISTORY_EVERY : 1, state) : null,
    };
    if (this.driven > this.events.length) throw new Error(`projection ${JSON.stringify(reg.unit.key)} registered after ${this.driven} events were driven without keeping them`);
    let previousSeq = -1;
    for (const event of this.events) {
      this.step(reg.unit, cell, event, false, previousSeq);
      previousSeq = event.seq;
    }
    reg.cell = cell;
    return cell;
  }

  /**
   * One `apply` with the change gate (J2.4). The watermark moves
   * even when the state does not. `publish` is false during a lazy build:
   * no frames, and the current view slot is dropped. `previousSeq`: the event
   * driven before this one, the watermark a unit that throws here keeps (J2.7).
   */
  private step(unit: AnyUnit, cell: Cell, event: LogEvent, publish: boolean, previousSeq: number): ProjectionChange | null {
    if (cell.failure?.kind === 'threw') return null;
    try {
      const before = cell.state;
      const next = unit.apply(before, event);
      cell.observedSeq = event.seq;
      if (Object.is(next, before)) return null;
      if (this.options.purity) {
        const finding = auditChange(unit, before, next, event);
        if (finding) this.purityFindings.push(finding);
        freezeState(next);
      }
      cell.state = next;
      cell.history?.push(event.seq, next);
      const domain = unit.failureOf?.(next);
      if (domain && !cell.failure) cell.failure = { seq: event.seq, message: domain, kind: 'domain' };
      // Views are only compared to publish frames; a registry that publishes none (a load's) never reads them.
      if (unit.hostOnly || !publish) return null;
      cell.views = [cell.views[1], unit.view(next)];
      const changed = this.options.generation === 'rc8' || !Object.is(cell.views[0], cell.views[1]);
      return changed ? { key: unit.key, value: cell.views[1], seq: event.seq } : null;
    } catch (error) {
      cell.failure = { seq: event.seq, message: error instanceof Error ? error.message : String(error), kind: 'threw' };
      // Its old watermark: the event before, which DSH's drive (every unit, every event) had given it, even when
      // this registry called the unit only for the types it reads.
      cell.observedSeq = Math.max(cell.observedSeq, previousSeq);
      return null;
    }
  }
}

const noEvent = (): undefined => undefined;

/** A view read now against its schema, dated at `seq`. */
function schemaFailureOf(unit: AnyUnit, value: unknown, seq: number): ProjectionFailure | null {
  const parsed = unit.viewSchema!.safeParse(value);
  return parsed.success ? null : { seq, message: schemaFailureText(unit.key, parsed.error), kind: 'schema' };
}
