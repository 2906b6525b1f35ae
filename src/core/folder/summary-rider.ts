import type { PackedRun } from '../log/packed-rows.ts';
import type { LogEvent } from '../log/types.ts';
import { titleUnit } from '../projections/units/title.ts';
import { TurnOutcomeTally, type TurnOutcome } from '../session/turn-outcomes.ts';
import type { SurfaceVisitor } from '../surface/walk.ts';
import { CallTally } from './call-tally.ts';

/**
 * What a sessions table shows of a log beyond its header, gathered on the
 * fold's walk (the restore's synthetic closers included, as the compare
 * summary counts them): turns and how the last one ended, model calls and
 * their usage per model, compactions, the title.
 */
export class SummaryRider implements SurfaceVisitor {
  readonly reads: ReadonlySet<string> = new Set([
    'turn/start', 'turn/end', 'step/start', 'assistant/chunk', 'assistant/attempt', 'assistant/message',
    'request/header', 'compaction/summary', 'session/title',
  ]);
  readonly calls = new CallTally();
  private readonly turnOutcomes = new TurnOutcomeTally();
  compactions = 0;
  title: string | null = titleUnit.init(null, 0);

  before(event: LogEvent): void {
    // A call is cut before its event walks, under the header in force (as the request builder does).
    this.calls.event(event);
  }

  run(run: PackedRun): void {
    this.calls.run(run);
  }

  after(event: LogEvent): void {
    switch (event.type) {
      case 'request/header': this.calls.header(event); break;
      case 'turn/start':
      case 'turn/end':
        this.turnOutcomes.after(event);
        break;
      case 'compaction/summary': this.compactions++; break;
      case 'session/title': this.title = titleUnit.apply(this.title, event); break;
    }
  }

  get turns(): number {
    return this.turnOutcomes.turns;
  }

  /** How the last turn ended (`turn/end` reason kind), `open` when the log leaves it running, null with no turn. */
  get lastTurnOutcome(): TurnOutcome | null {
    return this.turnOutcomes.last();
  }
}
