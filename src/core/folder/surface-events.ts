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

  constructor(private readonly surfaceNodes: () => readonly number[]) {}

  /** An event about to be walked (the walk may look it up too). */
  add(event: LogEvent): void {
    if (event.type === 'request/header') {
      this.headers.set(event.seq, event);
      if (this.headers.size > HEADERS_KEPT) this.headers.delete(this.headers.keys().next().value!);
      return;
    }
    const nodes = this.surfaceNodes();
    if (this.events.size > 2 * nodes.length + SLACK) this.prune(nodes);
    this.events.set(event.seq, event);
  }

  readonly at = (seq: number): LogEvent | undefined => this.events.get(seq) ?? this.headers.get(seq);

  private prune(nodes: readonly number[]): void {
    const kept = new Map<number, LogEvent>();
    for (const seq of nodes) {
      const e = this.events.get(seq);
      if (e) kept.set(seq, e);
    }
    this.events = kept;
  }
}
