import type { PackedRun } from '../log/packed-rows.ts';
import type { LogEvent } from '../log/types.ts';
import type { SurfaceVisitor } from '../surface/walk.ts';
import { noteCall, type CallNames } from './query.ts';

/**
 * The tool call names of a log, each with the event it was noted at, so a
 * search can match `tool:` as of each event without parsing the events that
 * carry calls: what a Map filled in order would hold at that event (a result
 * before its call, or an id used twice, reads as it would then), events
 * placed by their index. The load notes them riding its walk (the
 * first `tool:` search of a 1M-event log parsed every call again), counting
 * events as the replay index does: one per event visited, a packed run's members.
 */
/** Distinct tool names a log may hold (a noting packs its name's number under its position). */
const NAME_SPACE = 2 ** 20;

export class NotedCalls implements SurfaceVisitor {
  /**
   * Per call id, its first noting, packed as event index × NAME_SPACE + name number (a number per
   * call: the load keeps this for every call of the log).
   */
  private readonly first = new Map<string, number>();
  /** The later notings of an id that named another tool (rare), packed alike, in log order. */
  private readonly later = new Map<string, number[]>();
  private readonly names: string[] = [];
  private readonly nameIds = new Map<string, number>();
  private readonly scratch = new Map<string, string>();
  /** Events the walk has passed. */
  private walked = 0;

  /** Notes the calls event `at` carries (asked in increasing order of `at`). */
  note(at: number, event: LogEvent): void {
    noteCall(event, this.scratch);
    for (const [id, name] of this.scratch) {
      let nameId = this.nameIds.get(name);
      if (nameId === undefined) {
        // Past NAME_SPACE names a noting would not unpack: nothing more is noted (a search then finds fewer calls' results).
        if (this.names.length >= NAME_SPACE) continue;
        this.nameIds.set(name, (nameId = this.names.push(name) - 1));
      }
      const packed = at * NAME_SPACE + nameId;
      const first = this.first.get(id);
      if (first === undefined) { this.first.set(id, packed); continue; }
      const later = this.later.get(id);
      // Noted again with the name it already has (a message's block, then the tool/call event): nothing changes.
      if ((later ? later[later.length - 1] : first) % NAME_SPACE === nameId) continue;
      if (later) later.push(packed);
      else this.later.set(id, [packed]);
    }
    this.scratch.clear();
  }

  /** As a visitor of the load's walk: every event, noted at its index. */
  after(event: LogEvent): void {
    this.note(this.walked++, event);
  }

  /** A packed run of chunk deltas carries no call to note (a call is a tool/call event or a message's tool-call block). */
  run(run: PackedRun): void {
    this.walked += run.pieces.length;
  }

  /** The names as noted up to and including event `at`. */
  asOf(at: number): CallNames {
    const nameAt = (id: string): string | undefined => {
      const first = this.first.get(id);
      if (first === undefined || Math.floor(first / NAME_SPACE) > at) return undefined;
      let packed = first;
      for (const p of this.later.get(id) ?? []) { if (Math.floor(p / NAME_SPACE) > at) break; packed = p; }
      return this.names[packed % NAME_SPACE];
    };
    return { has: (id) => nameAt(id) !== undefined, get: nameAt };
  }
}
