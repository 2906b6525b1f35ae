import type { LogEvent } from '../log/types.ts';
import { issuesText } from '../util/zod-issues.ts';
import type { ChangeLog } from './cell.ts';
import type { AnyUnit, ProjectionFailure } from './types.ts';

/** At most this many changes are walked back to date a failing run; older ones are left unchecked. */
export const MAX_WALK_BACK = 2048;

/**
 * Whether a unit's view passes its schema at a cursor, and since which
 * change it has failed (projections.md §5.2: a schema failure is shown with
 * its seq). A view changes only where the state changes, so a verdict is
 * decided once per change and kept; a failing view's run of failing changes
 * is walked back to the change that began it. The states come from the
 * unit's change log a block at a time (one fold forward from a kept state),
 * so walking back costs about one `apply`, `view` and parse per change.
 */
export class ViewVerdicts {
  /** By changes counted (0: the initial state): null when the view passes, else the schema's message. */
  private readonly verdicts = new Map<number, string | null>();

  constructor(
    private readonly unit: AnyUnit,
    private readonly log: ChangeLog,
    private readonly initial: () => unknown,
    private readonly eventAt: (seq: number) => LogEvent | undefined,
  ) {}

  /** The schema failure of the view after `seq`, dated at the first change of its failing run; null when it passes. */
  failureAt(seq: number): ProjectionFailure | null {
    const schema = this.unit.viewSchema;
    if (!schema || this.unit.hostOnly) return null;
    const k = this.log.countThrough(seq);
    const message = this.verdict(k);
    if (message === null) return null;
    let first = k;
    const floor = Math.max(0, k - MAX_WALK_BACK);
    while (first > floor && this.verdict(first - 1) !== null) first--;
    const unchecked = first === floor && floor > 0;
    return {
      // The initial state's view failing: from the log's start.
      seq: first === 0 ? 0 : this.log.seqOf(first - 1),
      message: `view of "${this.unit.key}" fails its schema: ${message}${unchecked ? ` (as at each of the ${MAX_WALK_BACK} changes before; earlier ones were not checked)` : ''}`,
      kind: 'schema',
    };
  }

  /** The verdict after `k` changes, deciding the whole block of changes it folds again from its kept state. */
  private verdict(k: number): string | null {
    const known = this.verdicts.get(k);
    if (known !== undefined) return known;
    if (k === 0) return this.decide(0, this.initial());
    const every = this.log.every;
    const base = (k - 1) - ((k - 1) % every);
    const apply = (state: unknown, event: LogEvent) => this.unit.apply(state, event);
    let from: { index: number; state: unknown } | undefined;
    for (let i = base; i <= k - 1; i++) {
      const state = this.log.stateAfter(i, apply, this.eventAt, from);
      from = { index: i, state };
      if (!this.verdicts.has(i + 1)) this.decide(i + 1, state);
    }
    return this.verdicts.get(k)!;
  }

  private decide(k: number, state: unknown): string | null {
    const parsed = this.unit.viewSchema!.safeParse(this.unit.view(state));
    const verdict = parsed.success ? null : issuesText(parsed.error);
    this.verdicts.set(k, verdict);
    return verdict;
  }
}
