import type { LogEvent } from '../log/types.ts';

/** request/header events kept for developer/message `headerSeq` checks (they name the latest, or one just before). */
const HEADERS_KEPT = 16;
/** Slack before a prune: pruning costs the map's size, so it runs once the map has doubled past the surface. */
const SLACK = 256;

/**
 * The event lookup a summary's fold walks with, holding only what the fold
 * can look back at: the events now on the surface (tool-result rewrites,
 * image offloads and the system head check current nodes) and the latest
 * request/headers (a developer/message's tool additions). Everything else
 * is let go, so a summary never holds the log: memory follows the model's
 * context, not the log's length. Pruned in bulk once the map is twice the
 * surface, so each event costs O(1) amortised, never a scan per event.
 */
export class SurfaceEvents {
  private events = new Map<number, LogEvent>();
  private readonly headers = new Map<number, LogEvent>();
  private lastSeq = -1;
  /**
   * The fold asked for an earlier event that is not held: one let go, or
   * one that never was (a broken reference). Either way the caller reads
   * the log again with every event kept (`keepAll`), so the summary's
   * findings are exactly the full load's.
   */
  missed = false;

  /** `keepAll`: let nothing go (the exact second pass after a miss). */
  constructor(private readonly surfaceNodes: () => readonly number[], private readonly keepAll = false) {}

  /** An event about to be walked (the walk may look it up too). */
  add(event: LogEvent): void {
    if (event.seq > this.lastSeq) this.lastSeq = event.seq;
    if (event.type === 'request/header') {
      this.headers.set(event.seq, event);
      if (this.headers.size > HEADERS_KEPT && !this.keepAll) this.headers.delete(this.headers.keys().next().value!);
      return;
    }
    const nodes = this.surfaceNodes();
    if (this.events.size > 2 * nodes.length + SLACK && !this.keepAll) this.prune(nodes);
    this.events.set(event.seq, event);
  }

  readonly at = (seq: number): LogEvent | undefined => {
    const event = this.events.get(seq) ?? this.headers.get(seq);
    if (event === undefined && seq <= this.lastSeq) this.missed = true;
    return event;
  };

  private prune(nodes: readonly number[]): void {
    const kept = new Map<number, LogEvent>();
    for (const seq of nodes) {
      const e = this.events.get(seq);
      if (e) kept.set(seq, e);
    }
    this.events = kept;
  }
}
