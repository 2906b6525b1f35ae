import type { EventList, RawLines } from './event-list.ts';
import type { LineStore } from './line-store.ts';
import { expandPackedRow } from './packed-rows.ts';
import { decodeSourceEventSeqs } from './source-seqs.ts';
import type { EventOrigin, LogEvent } from './types.ts';
import { grownSize, grownTo, type GrowableArray } from '../util/typed.ts';
import { Offsets } from '../util/offsets.ts';
import { countAtOrBelow, firstWhere } from '../util/sorted.ts';

/** The parsed-event cache's byte budget: this share of the log, at least the minimum, at most the maximum. */
const CACHE_SHARE = 0.05;
const CACHE_MIN_BYTES = 256 * 1024;
const CACHE_MAX_BYTES = 8 * 1024 * 1024;
/** What a member of a packed row (one chunk delta) weighs in the cache. */
const PACKED_MEMBER_WEIGHT = 64;

/**
 * Events of a huge log without a JS object per event (docs/long-sessions.md). Kept per
 * physical line only: where its bytes are, its line number, the index of
 * its first event and whether it is a packed row; an event finds its line
 * by a binary search and `at(i)` decodes and parses that line again. So a
 * packed chunk row of 40 deltas costs one entry, not 40. Events the reader
 * changed beyond parsing (numbered rows, legacy upgrades, a packed member
 * out of step with its row) and the restore's synthetic events are kept as
 * objects ("pinned").
 */
export class EventStore implements EventList {
  /** Events stored (logged and synthetic), and how many of them come from the file. */
  private n = 0;
  private logged = 0;
  /** Lines stored, and per line: byte start, byte length, line number, first event, packed? */
  private lineCount = 0;
  private start: Float64Array;
  /** A line over 4 GiB cannot be parsed anyway. */
  private len: Uint32Array;
  /** Line number = line index + 2 (the header is line 1) + this offset (blank and rejected lines move it). */
  private readonly lineNoOffsets = new Offsets();
  private first: Uint32Array;
  /** Seq of the line's first event = its event index + this offset (a seq gap moves it). */
  private readonly seqOffsets = new Offsets();
  private packed: Uint8Array;
  private readonly pinned = new Map<number, { event: LogEvent; origin: EventOrigin | null }>();
  /** Logged events among the pinned (the restore's synthetic ones come after the logged). */
  private pinnedLogged = 0;
  /** Recently parsed events, oldest first (a Map keeps insertion order), each weighed by its line's bytes. */
  private readonly recent = new Map<number, { event: LogEvent; weight: number }>();
  private recentBytes = 0;
  /** The line bytes the cache may hold: a share of the log within bounds (a count alone lets 4,096 big tool results stay). */
  private readonly cacheBytes: number;
  /** The last packed row parsed, so its members are parsed once. */
  private lastRow: { line: number; events: LogEvent[] } | null = null;

  /** `capacity`: expected lines (grows by doubling past it); `expectedBytes`: the decoded size, when known. */
  constructor(private readonly lines: LineStore, private readonly cacheSize = 4096, capacity = 1024, private readonly expectedBytes = 0) {
    const c = Math.max(16, Math.ceil(capacity));
    this.cacheBytes = expectedBytes > 0 ? Math.min(CACHE_MAX_BYTES, Math.max(CACHE_MIN_BYTES, expectedBytes * CACHE_SHARE)) : CACHE_MAX_BYTES;
    this.start = new Float64Array(c);
    this.len = new Uint32Array(c);
    this.first = new Uint32Array(c);
    this.packed = new Uint8Array(c);
  }

  get length(): number {
    return this.n;
  }

  /** Appends a logged event; `exact` says re-parsing its line gives it back. */
  add(event: LogEvent, origin: EventOrigin, start: number, end: number, exact: boolean): void {
    const i = this.n++;
    const k = origin.packedIndex;
    const last = this.lineCount - 1;
    // A member of the packed row just stored, in step with it, shares its line entry.
    const sameRow = k !== undefined && last >= 0 && this.packed[last] === 1 && this.start[last] === start
      && this.first[last] + k === i && this.firstSeqOf(last) + k === event.seq;
    if (!sameRow) this.addLine(start, end, origin.line, i, event.seq, k === 0);
    this.logged = this.n;
    // A member whose row lost earlier members (they were rejected) has a line of its own: kept as an object.
    const inStep = k === undefined || k === 0 || sameRow;
    if (!exact || origin.legacy || !inStep) {
      this.pinned.set(i, { event, origin });
      this.pinnedLogged++;
    }
  }

  /** Appends the members of a packed run (one line, members 0…n-1). */
  addRun(count: number, line: number, start: number, end: number, seq0: number): void {
    this.addLine(start, end, line, this.n, seq0, true);
    this.n += count;
    this.logged = this.n;
  }

  /** Appends an event that is not in the file (a restore closer). */
  addSynthetic(event: LogEvent): void {
    this.pinned.set(this.n++, { event, origin: null });
  }

  /** The event with this seq: a binary search on the lines' first seqs (seqs only grow), no parsing. */
  bySeq(seq: number): LogEvent | undefined {
    const i = this.indexOfSeq(seq);
    return i < 0 ? undefined : this.at(i);
  }

  /** Index of the event with this seq, or -1. */
  indexOfSeq(seq: number): number {
    // Kept inline: measured 12% slower through the helper (firstWhere) on a per-lookup path.
    let lo = 0;
    let hi = this.lineCount - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.firstSeqOf(mid) <= seq) lo = mid; else hi = mid - 1;
    }
    if (this.lineCount > 0 && this.firstSeqOf(lo) <= seq) {
      const i = this.first[lo] + (seq - this.firstSeqOf(lo));
      const end = lo + 1 < this.lineCount ? this.first[lo + 1] : this.logged;
      if (i < end && (this.packed[lo] || i === this.first[lo])) return i;
    }
    // The restore's synthetic events come after the logged ones: a few, kept as objects.
    for (let i = this.logged; i < this.n; i++) if (this.pinned.get(i)?.event.seq === seq) return i;
    return -1;
  }

  at(index: number): LogEvent | undefined {
    if (index < 0 || index >= this.n || !Number.isInteger(index)) return undefined;
    const pin = this.pinned.get(index);
    if (pin) return pin.event;
    const cached = this.recent.get(index);
    if (cached) {
      this.recent.delete(index);
      this.recent.set(index, cached);
      return cached.event;
    }
    const event = this.parse(index);
    const l = this.lineOf(index);
    // A packed row's member is a small delta; any other event weighs its line.
    const weight = l < 0 || this.packed[l] ? PACKED_MEMBER_WEIGHT : this.len[l];
    this.recent.set(index, { event, weight });
    this.recentBytes += weight;
    while (this.recent.size > 1 && (this.recent.size > this.cacheSize || this.recentBytes > this.cacheBytes)) {
      const [oldest, entry] = this.recent.entries().next().value!;
      this.recent.delete(oldest);
      this.recentBytes -= entry.weight;
    }
    return event;
  }

  /** `at` for scans (search): parsed without entering the cache, so a pass over the log does not evict what the cursor uses. */
  peek(index: number): LogEvent | undefined {
    if (index < 0 || index >= this.n || !Number.isInteger(index)) return undefined;
    return this.pinned.get(index)?.event ?? this.recent.get(index)?.event ?? this.parse(index);
  }

  /**
   * The line an event was read from, as text, unparsed, with the lines after it while they fit in
   * `maxBytes` (a search rules lines out by their text first, a block at a time). Null when the
   * first line holds an event the reader changed; a block stops before such a line.
   */
  rawLines(index: number, maxBytes = 0): RawLines | null {
    const first = this.lineOf(index);
    if (first < 0 || this.holdsPinned(first)) return null;
    const start = this.start[first];
    let last = first;
    let packed = this.packed[first] === 1;
    while (last + 1 < this.lineCount && this.start[last + 1] + this.len[last + 1] - start <= maxBytes && !this.holdsPinned(last + 1)) {
      last++;
      packed ||= this.packed[last] === 1;
    }
    return { text: this.lines.text(start, this.start[last] + this.len[last]), to: this.eventsEnd(last), packed };
  }

  /** The event's place in the file (null for a synthetic event). */
  origin(index: number): EventOrigin | null {
    const pin = this.pinned.get(index);
    if (pin) return pin.origin;
    const l = this.lineOf(index);
    if (l < 0) return null;
    return this.packed[l] ? { line: this.lineNoOf(l), packedIndex: index - this.first[l] } : { line: this.lineNoOf(l) };
  }

  /**
   * How many events a log of the expected size will hold, extrapolated from
   * the `count` read so far (0 when the size is unknown): lets growing
   * arrays jump to their final size instead of doubling and trimming.
   */
  projectedCount(count: number): number {
    // The bytes the stored lines span, not the bytes read: a reader holds a whole chunk before it
    // walks the chunk's lines (an in-memory Blob's stream hands over the whole file at once).
    const last = this.lineCount - 1;
    const walked = last < 0 ? 0 : this.start[last] + this.len[last] + 1;
    // Past the expected size the guess was wrong (a compressed file's size is not its decoded size).
    return this.expectedBytes > 0 && walked > 0 && walked < this.expectedBytes ? Math.ceil((count * this.expectedBytes) / walked) : 0;
  }

  /** Where event i's line starts in the decoded bytes (-1 for an event not in the file): the log's bytes before it are the lines before. */
  lineByteStart(index: number): number {
    if (this.pinned.get(index)?.origin === null) return -1;
    const l = this.lineOf(index);
    return l < 0 ? -1 : this.start[l];
  }

  /** Bytes of event i's line (0 for an event not in the file). */
  lineBytes(index: number): number {
    if (this.pinned.get(index)?.origin === null) return 0;
    const l = this.lineOf(index);
    return l < 0 ? 0 : this.len[l];
  }

  /** How many of the first `count` events come from lines numbered ≤ `line`. */
  eventsThroughLine(line: number, count = this.n): number {
    const lo = firstWhere(this.lineCount, (l) => !(this.lineNoOf(l) <= line));
    const events = lo < this.lineCount ? this.first[lo] : this.n;
    return Math.min(events, count);
  }

  /**
   * Calls `visit(from, to)` with the event indexes [from, to) of each line
   * numbered in `lineNos` (ascending), in one pass over the line table.
   * False as soon as a number is not a stored line, a line holds an event the
   * reader changed (it is not what the line says), or `visit` says false.
   */
  forLines(lineNos: ArrayLike<number>, visit: (from: number, to: number) => boolean): boolean {
    let l = 0;
    for (let k = 0; k < lineNos.length; k++) {
      const no = lineNos[k];
      while (l < this.lineCount && this.lineNoOf(l) < no) l++;
      if (l === this.lineCount || this.lineNoOf(l) !== no) return false;
      const from = this.first[l];
      const to = l + 1 < this.lineCount ? this.first[l + 1] : this.logged;
      if (this.pinned.size > 0) for (let i = from; i < to; i++) if (this.pinned.has(i)) return false;
      if (!visit(from, to)) return false;
    }
    return true;
  }

  *[Symbol.iterator](): Iterator<LogEvent> {
    for (let i = 0; i < this.n; i++) yield this.at(i)!;
  }

  /** The line entry an event belongs to (-1 past the logged ones). */
  private lineOf(index: number): number {
    if (index < 0 || index >= this.logged || this.lineCount === 0) return -1;
    // The newest line first: the load asks about the event it has just stored.
    if (this.first[this.lineCount - 1] <= index) return this.lineCount - 1;
    return Math.max(0, countAtOrBelow(this.first, index, this.lineCount) - 1);
  }

  private parse(index: number): LogEvent {
    const l = this.lineOf(index);
    if (l < 0) throw new Error(`event ${index} has no line`);
    const start = this.start[l];
    const text = () => this.lines.text(start, start + this.len[l]);
    if (this.packed[l]) {
      if (this.lastRow?.line !== l) {
        const expansion = expandPackedRow(JSON.parse(text()));
        if (!expansion.ok) throw new Error(`packed row at byte ${start} no longer expands: ${expansion.reason}`);
        this.lastRow = { line: l, events: expansion.events };
      }
      return this.lastRow.events[index - this.first[l]];
    }
    // The reader's transform for an exact row: parse, then decode range-encoded sources.
    const event = JSON.parse(text()) as LogEvent;
    if (event.sourceEventSeqs !== undefined) event.sourceEventSeqs = decodeSourceEventSeqs(event.sourceEventSeqs, event.seq) as number[];
    return event;
  }

  /** The index after line l's last event. */
  private eventsEnd(l: number): number {
    return l + 1 < this.lineCount ? this.first[l + 1] : this.logged;
  }

  /** Whether line l holds an event kept as an object (the reader changed it, so the line is not what it says). */
  private holdsPinned(l: number): boolean {
    if (this.pinnedLogged === 0) return false;
    for (let i = this.first[l], end = this.eventsEnd(l); i < end; i++) if (this.pinned.has(i)) return true;
    return false;
  }

  private lineNoOf(l: number): number {
    return l + 2 + this.lineNoOffsets.get(l);
  }

  private firstSeqOf(l: number): number {
    return this.first[l] + this.seqOffsets.get(l);
  }

  private addLine(start: number, end: number, line: number, firstEvent: number, firstSeq: number, packed: boolean): void {
    if (this.lineCount === this.start.length) this.grow();
    const l = this.lineCount++;
    this.start[l] = start;
    this.len[l] = end - start;
    this.lineNoOffsets.set(l, l + 2, line);
    this.first[l] = firstEvent;
    this.seqOffsets.set(l, firstEvent, firstSeq);
    this.packed[l] = packed ? 1 : 0;
  }

  private grow(): void {
    const size = grownSize(this.start.length, this.projectedCount(this.lineCount));
    const copy = <T extends GrowableArray>(a: T): T => grownTo(a, size);
    this.start = copy(this.start);
    this.len = copy(this.len);
    this.first = copy(this.first);
    this.packed = copy(this.packed);
  }

}
