import type { LogEvent } from '../log/types.ts';
import { noteCall, type CallNames } from './query.ts';

/**
 * The tool call names a scan noted, each with the event it was noted at, so
 * a later scan of the same log can match `tool:` as of each event without
 * parsing the events that carry calls again: what a Map filled in order would
 * hold at that event (a result before its call, or an id used twice, reads as
 * it would then).
 */
export class NotedCalls {
  /** Per call id, its notings in event order: [event index, name]. */
  private readonly byId = new Map<string, [at: number, name: string][]>();
  private readonly scratch = new Map<string, string>();

  /** Notes the calls event `index` carries (asked in increasing order of index). */
  note(index: number, event: LogEvent): void {
    noteCall(event, this.scratch);
    for (const [id, name] of this.scratch) {
      const notings = this.byId.get(id);
      if (notings) notings.push([index, name]);
      else this.byId.set(id, [[index, name]]);
    }
    this.scratch.clear();
  }

  /** The names as noted up to and including event `index`. */
  asOf(index: number): CallNames {
    const nameAt = (id: string): string | undefined => {
      const notings = this.byId.get(id);
      if (!notings) return undefined;
      let name: string | undefined;
      for (const [at, n] of notings) { if (at > index) break; name = n; }
      return name;
    };
    return { has: (id) => nameAt(id) !== undefined, get: nameAt };
  }
}
