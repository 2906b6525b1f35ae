import type { LogEvent } from '../log/types.ts';
import type { SurfaceVisitor } from '../surface/walk.ts';

/** How one turn ended: its `turn/end` reason kind, `ended` for an end without one, `open` for a turn the log leaves running. */
export interface TurnOutcome {
  turn: number;
  outcome: string;
}

/**
 * Each turn's outcome, noted from the turn boundaries as a walk passes
 * them (the restore's synthetic closers included): a comparison's run
 * summary shows them all, a sessions table the last. Read afterwards from
 * a long log, they cost a pass over the whole file: a log read back from
 * its file was read once more to find one or two events a turn.
 */
export class TurnOutcomeTally implements SurfaceVisitor {
  readonly reads: ReadonlySet<string> = new Set(['turn/start', 'turn/end']);
  /** Each start's turn number, in log order (its position among the starts, from 1, when it has none). */
  private readonly starts: number[] = [];
  private readonly ended = new Map<number, string>();

  after(event: LogEvent): void {
    const data = event.data;
    if (event.type === 'turn/start') this.starts.push(typeof data?.turn === 'number' ? data.turn : this.starts.length + 1);
    else if (event.type === 'turn/end' && typeof data?.turn === 'number') {
      const kind = data.reason?.kind;
      this.ended.set(data.turn, typeof kind === 'string' ? kind : 'ended');
    }
  }

  /** Turn starts walked. */
  get turns(): number {
    return this.starts.length;
  }

  /** One outcome per turn start, in log order. */
  outcomes(): TurnOutcome[] {
    return this.starts.map((turn) => this.outcomeOf(turn));
  }

  /** The last turn's outcome, null with no turn. */
  last(): TurnOutcome | null {
    return this.starts.length ? this.outcomeOf(this.starts[this.starts.length - 1]) : null;
  }

  private outcomeOf(turn: number): TurnOutcome {
    return { turn, outcome: this.ended.get(turn) ?? 'open' };
  }
}
