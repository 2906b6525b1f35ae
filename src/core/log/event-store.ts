import type { EventList, OriginList } from './event-list.ts';
import type { LineStore } from './line-store.ts';
import { expandPackedRow } from './packed-rows.ts';
import { decodeSourceEventSeqs } from './source-seqs.ts';
import type { EventOrigin, LogEvent } from './types.ts';

/**
 * Events of a huge log without a JS object per event (issue #6): per event
 * only the byte range of its line, its packed-member index and its line
 * number are kept in typed arrays; `at(i)` decodes and parses the line again.
 * Events the reader changed beyond parsing (numbered rows, legacy upgrades)
 * and the restore's synthetic events are kept as objects ("pinned").
 */
export class EventStore implements EventList {
  private n = 0;
  private start: Float64Array;
  /** Line length in bytes (a line over 4 GiB cannot be parsed anyway). */
  private len: Uint32Array;
  /** Packed member index + 1; 0 for a row that is one event. */
  private member: Uint32Array;
  private lineNo: Uint32Array;
  private readonly pinned = new Map<number, { event: LogEvent; origin: EventOrigin | null }>();
  /** Recently parsed events, oldest first (a Map keeps insertion order). */
  private readonly recent = new Map<number, LogEvent>();
  /** The last packed row parsed, so its members are parsed once. */
  private lastRow: { start: number; events: LogEvent[] } | null = null;

  /** `capacity`: expected events (grows by doubling past it). */
  constructor(private readonly lines: LineStore, private readonly cacheSize = 4096, capacity = 1024) {
    const c = Math.max(16, Math.ceil(capacity));
    this.start = new Float64Array(c);
    this.len = new Uint32Array(c);
    this.member = new Uint32Array(c);
    this.lineNo = new Uint32Array(c);
  }

  get length(): number {
    return this.n;
  }

  /** The event with this seq: its contiguous position first, else a binary search (a log with gaps). */
  bySeq(seq: number): LogEvent | undefined {
    if (this.n === 0) return undefined;
    const base = this.at(0)!.seq;
    const guess = this.at(seq - base);
    if (guess?.seq === seq) return guess;
    let lo = 0;
    let hi = this.n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const e = this.at(mid)!;
      if (e.seq === seq) return e;
      if (e.seq < seq) lo = mid + 1; else hi = mid - 1;
    }
    return undefined;
  }

  /** Appends a logged event; `exact` says re-parsing its line gives it back. */
  add(event: LogEvent, origin: EventOrigin, start: number, end: number, exact: boolean): void {
    this.grow();
    const i = this.n++;
    this.start[i] = start;
    this.len[i] = end - start;
    this.member[i] = origin.packedIndex === undefined ? 0 : origin.packedIndex + 1;
    this.lineNo[i] = origin.line;
    if (!exact || origin.legacy) this.pinned.set(i, { event, origin });
  }

  /** Appends the members of a packed run (one line, members 0…n-1). */
  addRun(count: number, line: number, start: number, end: number): void {
    for (let k = 0; k < count; k++) {
      this.grow();
      const i = this.n++;
      this.start[i] = start;
      this.len[i] = end - start;
      this.member[i] = k + 1;
      this.lineNo[i] = line;
    }
  }

  /** Appends an event that is not in the file (a restore closer). */
  addSynthetic(event: LogEvent): void {
    this.grow();
    const i = this.n++;
    this.pinned.set(i, { event, origin: null });
  }

  at(index: number): LogEvent | undefined {
    if (index < 0 || index >= this.n || !Number.isInteger(index)) return undefined;
    const pin = this.pinned.get(index);
    if (pin) return pin.event;
    let event = this.recent.get(index);
    if (event) {
      this.recent.delete(index);
      this.recent.set(index, event);
      return event;
    }
    event = this.parse(index);
    this.recent.set(index, event);
    if (this.recent.size > this.cacheSize) this.recent.delete(this.recent.keys().next().value!);
    return event;
  }

  /** The event's place in the file (null for a synthetic event). */
  origin(index: number): EventOrigin | null {
    const pin = this.pinned.get(index);
    if (pin) return pin.origin;
    if (index < 0 || index >= this.n) return null;
    const m = this.member[index];
    return m === 0 ? { line: this.lineNo[index] } : { line: this.lineNo[index], packedIndex: m - 1 };
  }

  /** Physical line number per event (0 for synthetic ones), for findings that know only a line. */
  line(index: number): number {
    return this.pinned.get(index)?.origin?.line ?? this.lineNo[index] ?? 0;
  }

  /** Bytes of event i's line (0 for an event not in the file). */
  lineBytes(index: number): number {
    if (index < 0 || index >= this.n) return 0;
    // Synthetic events have no line; the others (pinned ones too) keep their line's length.
    return this.pinned.get(index)?.origin === null ? 0 : this.len[index];
  }

  /** Line numbers of the first `count` events (ascending in a log read in order). */
  lineNumbers(count = this.n): Uint32Array {
    return this.lineNo.subarray(0, Math.min(count, this.n));
  }

  *[Symbol.iterator](): Iterator<LogEvent> {
    for (let i = 0; i < this.n; i++) yield this.at(i)!;
  }

  /** Origins as an OriginList view. */
  get origins(): OriginList {
    return { length: this.n, at: (i: number) => this.origin(i) ?? undefined };
  }

  private parse(index: number): LogEvent {
    const start = this.start[index];
    const m = this.member[index];
    if (m !== 0) {
      if (this.lastRow?.start !== start) {
        const row = JSON.parse(this.lines.text(start, start + this.len[index]));
        const expansion = expandPackedRow(row);
        if (!expansion.ok) throw new Error(`packed row at byte ${start} no longer expands: ${expansion.reason}`);
        this.lastRow = { start, events: expansion.events };
      }
      return this.lastRow.events[m - 1];
    }
    // The reader's transform for an exact row: parse, then decode range-encoded sources.
    const event = JSON.parse(this.lines.text(start, start + this.len[index])) as LogEvent;
    if (event.sourceEventSeqs !== undefined) event.sourceEventSeqs = decodeSourceEventSeqs(event.sourceEventSeqs, event.seq) as number[];
    return event;
  }

  private grow(): void {
    if (this.n < this.start.length) return;
    const size = this.start.length * 2;
    const f = (a: Float64Array) => { const b = new Float64Array(size); b.set(a); return b; };
    const u = (a: Uint32Array) => { const b = new Uint32Array(size); b.set(a); return b; };
    this.start = f(this.start);
    this.len = u(this.len);
    this.member = u(this.member);
    this.lineNo = u(this.lineNo);
  }

  /** Bytes held beyond the log's own bytes: the per-event arrays. */
  get indexBytes(): number {
    return this.start.byteLength + this.len.byteLength + this.member.byteLength + this.lineNo.byteLength;
  }
}
