import type { EventStore } from '../../core/log/event-store.ts';
import type { ProjectionRegistry } from '../../core/projections/registry.ts';
import { valueDiff } from '../../core/projections/value-diff.ts';
import type { Replay } from '../../core/replay/replay-index.ts';
import { countAtOrBelow, positionOf } from '../../core/util/sorted.ts';
import type { LoadSummary, ProjectionAtCursor } from '../protocol.ts';

const NO_SEQS = new Uint32Array(0);

/**
 * The projection units of the open log: where each one's value changed and
 * where it was written again with an equal value (found once, typed: 4 bytes
 * a change), and every unit's view, raw state and watermark at a cursor,
 * from the registry's recorded history.
 */
export class UnitsService {
  private readonly changeSeqs = new Map<string, Uint32Array | Float64Array>();
  private readonly equalWriteSeqs = new Map<string, Uint32Array | Float64Array>();

  constructor(private readonly replay: Replay<EventStore>, readonly registry: ProjectionRegistry) {
    for (const u of registry.units) {
      this.changeSeqs.set(u.key, registry.changeSeqsWhere(u.key, false));
      this.equalWriteSeqs.set(u.key, registry.changeSeqsWhere(u.key, true));
    }
  }

  /** The units as the load summary lists them: the page draws their change strips from these. */
  summaryUnits(): LoadSummary['projectionUnits'] {
    const registry = this.registry;
    return registry.units.map((u) => ({
      key: u.key,
      stateVersion: u.stateVersion,
      hostOnly: u.hostOnly === true,
      changes: this.changeSeqs.get(u.key) ?? NO_SEQS,
      equalWrites: this.equalWriteSeqs.get(u.key) ?? NO_SEQS,
      failure: registry.cell(u.key)?.failure ?? null,
    }));
  }

  /** Every unit at event `index` (the Projections panel asks when it is shown). */
  projectionsAtIndex(index: number): ProjectionAtCursor[] {
    return this.projectionsAt(this.replay.session.events.at(index)?.seq ?? -1);
  }

  /** Every unit's view, raw state and watermark as of `seq`. */
  projectionsAt(seq: number): ProjectionAtCursor[] {
    const registry = this.registry;
    return registry.units.map((unit) => {
      const changes = this.changeSeqs.get(unit.key) ?? NO_SEQS;
      const state = registry.stateAt(unit.key, seq);
      const failure = registry.cell(unit.key)?.failure ?? null;
      // A fold's own failure from its seq on; else the view at the cursor against its schema, dated where it began failing.
      const failed = (failure && failure.seq <= seq ? failure : null) ?? registry.schemaFailureAt(unit.key, seq, state);
      const k = countAtOrBelow(changes, seq);
      const changedHere = changes[k - 1] === seq;
      return {
        key: unit.key,
        stateVersion: unit.stateVersion,
        hostOnly: unit.hostOnly === true,
        view: unit.view(state),
        state,
        // The watermark advances on every event; a unit whose fold threw stops at its failure.
        observedSeq: failed && failed.kind === 'threw' ? failed.seq - 1 : seq,
        changedHere,
        rewroteHere: !changedHere && positionOf(this.equalWriteSeqs.get(unit.key) ?? NO_SEQS, seq) >= 0,
        // What changed: the value before this event against the one after it (only at a change).
        diff: changedHere ? valueDiff(unit.view(registry.stateAt(unit.key, seq - 1)), unit.view(state)) : null,
        prevChange: changedHere ? (changes[k - 2] ?? null) : (changes[k - 1] ?? null),
        nextChange: changes[k] ?? null,
        failure: failed,
      };
    });
  }
}
