import type { z } from 'zod';
import type { LogEvent } from '../log/types.ts';
import { grownTo } from '../util/typed.ts';
import { issuesText } from '../util/zod-issues.ts';
import type { ChangeLog } from './cell.ts';
import type { AnyUnit, ProjectionFailure } from './types.ts';

/** At most this many changes are walked back to date a failing run; older ones are left unchecked. */
export const MAX_WALK_BACK = 2048;

/** What a unit's failing view is told as. */
export const schemaFailureText = (key: string, error: z.ZodError): string => `view of "${key}" fails its schema: ${issuesText(error)}`;

/** A change's verdict: not decided yet, its view passes, its view fails. */
const UNKNOWN = 0;
const PASSES = 1;
const FAILS = 2;

/**
 * Whether a unit's view passes its schema at a cursor, and since which
 * change it has failed (dsh-log-rules J5.2: a schema failure is shown with
 * its seq). A view changes only where the state changes, so a verdict is
 * decided once per change and kept, a byte each; the schema's words are made
 * again only for the change being shown. A failing view's run of failing
 * changes is walked back to the change that began it, deciding a block of
 * changes at a time (one fold forward from the block's kept state), so a
 * walk costs about one `apply`, `view` and parse per change.
 */
export class ViewVerdicts {
  /** By changes counted (0: the initial state). */
  private verdicts = new Uint8Array(16);

  constructor(
    private readonly unit: AnyUnit,
    private readonly log: ChangeLog,
    private readonly initial: () => unknown,
    private readonly eventAt: (seq: number) => LogEvent | undefined,
  ) {}

  /**
   * The schema failure of the view after `seq`, dated at the first change of its failing run; null when it
   * passes. `state`: the unit's state after `seq` when the caller has it (else it is folded again).
   */
  failureAt(seq: number, state?: unknown): ProjectionFailure | null {
    const schema = this.unit.viewSchema;
    if (!schema || this.unit.hostOnly) return null;
    const k = this.log.countThrough(seq);
    if (this.verdictOf(k) === PASSES) return null;
    const parsed = schema.safeParse(this.unit.view(state === undefined ? this.stateAfterChanges(k) : state));
    this.record(k, parsed.success);
    if (parsed.success) return null;
    let first = k;
    const floor = Math.max(0, k - MAX_WALK_BACK);
    while (first > floor && this.fails(first - 1)) first--;
    const unchecked = first === floor && floor > 0;
    return {
      // The initial state's view failing: from the log's start.
      seq: first === 0 ? 0 : this.log.seqOf(first - 1),
      message: `${schemaFailureText(this.unit.key, parsed.error)}${unchecked ? ` (as at each of the ${MAX_WALK_BACK} changes before; earlier ones were not checked)` : ''}`,
      kind: 'schema',
    };
  }

  /** Whether the view after `k` changes fails, deciding the block of changes it lies in when it is not known. */
  private fails(k: number): boolean {
    if (this.verdictOf(k) === UNKNOWN) this.decideBlockOf(k);
    return this.verdictOf(k) === FAILS;
  }

  /** Decides every undecided change of the block holding change count `k`, folding forward from its kept state once. */
  private decideBlockOf(k: number): void {
    if (k === 0) {
      this.decide(0, this.initial());
      return;
    }
    const every = this.log.every;
    const base = (k - 1) - ((k - 1) % every);
    const end = Math.min(this.log.length, base + every);
    const apply = (state: unknown, event: LogEvent) => this.unit.apply(state, event);
    let from: { index: number; state: unknown } | undefined;
    for (let i = base; i < end; i++) {
      const state = this.log.stateAfter(i, apply, this.eventAt, from);
      from = { index: i, state };
      if (this.verdictOf(i + 1) === UNKNOWN) this.decide(i + 1, state);
    }
  }

  private stateAfterChanges(k: number): unknown {
    return k === 0 ? this.initial() : this.log.stateAfter(k - 1, (state, event) => this.unit.apply(state, event), this.eventAt);
  }

  private decide(k: number, state: unknown): void {
    this.record(k, this.unit.viewSchema!.safeParse(this.unit.view(state)).success);
  }

  private verdictOf(k: number): number {
    return k < this.verdicts.length ? this.verdicts[k] : UNKNOWN;
  }

  private record(k: number, passes: boolean): void {
    if (k >= this.verdicts.length) this.verdicts = grownTo(this.verdicts, Math.max(k + 1, this.verdicts.length * 2));
    this.verdicts[k] = passes ? PASSES : FAILS;
  }
}
