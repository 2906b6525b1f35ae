import type { PackedRun } from '../log/packed-rows.ts';
import type { LogEvent } from '../log/types.ts';
import type { SurfaceVisitor } from '../surface/walk.ts';
import { noteCall, type CallNames } from './query.ts';

/**
 * The tool call names of a log, each with the event it was noted at, so a
 * search can match `tool:` as of each event without parsing the events that
 * carry calls: what a Map filled in order would hold at that event (a result
 * before its call, or an id used twice, reads as it would then). An event is
 * placed by any number that grows in log order: the load notes by seq, riding
 * its walk (issue #15: the first `tool:` search of a 1M-event log parsed every
 * call again).
 */
export class NotedCalls implements SurfaceVisitor {
  /** Per call id, its notings in log order: [event position, name]. */
  private readonly byId = new Map<string, [at: number, name: string][]>();
  private readonly scratch = new Map<string, string>();

  /** Notes the calls the event at `at` carries (asked in increasing order of `at`). */
  note(at: number, event: LogEvent): void {
    noteCall(event, this.scratch);
    for (const [id, name] of this.scratch) {
      const notings = this.byId.get(id);
      if (notings) notings.push([at, name]);
      else this.byId.set(id, [[at, name]]);
    }
    this.scratch.clear();
  }

  /** As a visitor of the load's walk: every event, noted at its seq. */
  after(event: LogEvent): void {
    this.note(event.seq, event);
  }

  /** A packed run of chunk deltas carries no call to note (a call is a tool/call event or a message's tool-call block). */
  run(_run: PackedRun): void {}

  /** The names as noted up to and including the event at `at`. */
  asOf(at: number): CallNames {
    const nameAt = (id: string): string | undefined => {
      const notings = this.byId.get(id);
      if (!notings) return undefined;
      let name: string | undefined;
      for (const [noted, n] of notings) { if (noted > at) break; name = n; }
      return name;
    };
    return { has: (id) => nameAt(id) !== undefined, get: nameAt };
  }
}
