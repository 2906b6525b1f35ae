/**
 * Reading a plain log's lines back from its file instead of from a copy of
 * its bytes in memory (the copy was the load's biggest part,
 * as big as the file). A dropped File stays on disk and can be read at any
 * offset; the reads are synchronous (FileReaderSync in the worker, readSync
 * in Node), since a line is parsed again in the middle of a query.
 */
export interface ByteReader {
  /** The file's size in bytes. */
  readonly size: number;
  /** Bytes [start, end); throws when the file can no longer be read (it changed on disk). */
  read(start: number, end: number): Uint8Array;
  /** Told when bytes read back turn out not to be the ones loaded (a compressed frame decodes otherwise). */
  failed?(message: string): void;
}

/** Bytes in memory as a file read back at any offset (the fuzz run's and the tests' stand-in for a dropped file), counting reads. */
export function bytesReadBack(bytes: Uint8Array): ByteReader & { reads: number } {
  return {
    size: bytes.length,
    reads: 0,
    read(start, end) {
      this.reads++;
      return bytes.slice(start, end);
    },
  };
}

/**
 * A read-back block: lines near each other (a screen of nodes, the steps of a call) share one read.
 * Small, because most reads want one line: a load that looks back at earlier messages (each
 * compaction's prefix analysis) read 64 KiB blocks for lines of a few hundred bytes, 0.8× a
 * compacting 14 MB log in buffers over the load, which the collector freed late.
 */
const BLOCK_BYTES = 8 * 1024;
/** Blocks kept, most recently used last: 2 MiB, a few screens' worth. */
const MAX_BLOCKS = 256;
/**
 * What a scan reads at once: 64 KiB when it starts, twice as much each time it goes on, up to
 * MAX_SCAN_BLOCKS. Each read of the file costs about a millisecond plus its bytes (Chromium 150's
 * FileReaderSync in a worker, a 12 MB log read whole: 1,475 ms in 8 KiB reads, 200 ms in 64 KiB,
 * 43 ms in 1 MiB, 25 ms in 4 MiB); a search, an export or a comparison of two logs reads a
 * long log back in order (a comparison of two 1M-event logs spent 12 s in 64 KiB reads).
 */
const READ_AHEAD = 8;
/** The most a scan reads at once: 4 MiB (about 10 ms in Chromium), kept as one buffer beside the blocks. */
const MAX_SCAN_BLOCKS = 512;

/**
 * A ByteReader's bytes in aligned blocks, the recently used ones
 * kept: each read of the file has a fixed cost (a round trip to the
 * browser's file service), so neighbouring lines must not each pay it.
 * A read that goes on forward from the last one is a scan: it reads
 * ahead into one buffer of its own (the scan window), more each time,
 * and lines in it are served from it without a read.
 * A range longer than half the cache (one huge tool result) is read
 * whole and not kept, unless a scan reads it.
 */
export class BlockCache {
  private readonly blocks = new Map<number, Uint8Array>();
  /** The scan's last read: its bytes from offset `start` (lines in it are handed out as views of it, to be decoded). */
  private window: { start: number; bytes: Uint8Array } | null = null;
  /** [start, end) of the last read of the source: a miss from there on, and not far past its end, goes on scanning. */
  private lastStart = -1;
  private lastEnd = -1;
  /** Bytes the scan reads next time (readAhead blocks when one starts, doubled as it goes on). */
  private scanBytes: number;

  /** `readAhead` and `maxScan` are in blocks; a scan starts at the first and doubles up to the second (1: never read ahead). */
  constructor(private readonly source: ByteReader, private readonly blockBytes = BLOCK_BYTES, private readonly maxBlocks = MAX_BLOCKS, private readonly readAhead = READ_AHEAD, private readonly maxScan = MAX_SCAN_BLOCKS) {
    this.scanBytes = readAhead * blockBytes;
  }

  /** The bytes the source gives back: [0, size). */
  get size(): number {
    return this.source.size;
  }

  read(start: number, end: number): Uint8Array {
    if (end <= start) return new Uint8Array(0);
    const w = this.window;
    if (w && start >= w.start && end <= w.start + w.bytes.length) return w.bytes.subarray(start - w.start, end - w.start);
    const first = Math.floor(start / this.blockBytes);
    const last = Math.floor((end - 1) / this.blockBytes);
    if (!this.cached(first, last) && this.scanGoesOn(start, end)) return this.scan(first * this.blockBytes, end, start);
    if (last - first + 1 > this.maxBlocks / 2) return this.readElsewhere(start, end);
    this.fill(first, last);
    if (first === last) {
      const base = first * this.blockBytes;
      return this.blocks.get(first)!.subarray(start - base, end - base);
    }
    const out = new Uint8Array(end - start);
    for (let b = first; b <= last; b++) {
      const block = this.blocks.get(b)!;
      const base = b * this.blockBytes;
      const from = Math.max(start, base);
      const to = Math.min(end, base + block.length);
      out.set(block.subarray(from - base, to - base), from - start);
    }
    return out;
  }

  /** Whether a read of [start, end) goes on forward from the last read of the source, not further past its end than a scan reads. */
  private scanGoesOn(start: number, end: number): boolean {
    return this.maxScan > 1 && this.lastEnd >= 0 && start >= this.lastStart && end > this.lastEnd && start < this.lastEnd + this.scanBytes;
  }

  /** A scan's read: from `from` (a block's start) through `end` at least, as far as the scan reads now; the next one reads twice as far. */
  private scan(from: number, end: number, start: number): Uint8Array {
    const to = Math.min(this.source.size, Math.max(end, from + this.scanBytes));
    const bytes = this.readSource(from, to);
    this.window = { start: from, bytes };
    this.scanBytes = Math.min(this.scanBytes * 2, this.maxScan * this.blockBytes);
    return bytes.subarray(start - from, end - from);
  }

  /** A read that is not a scan's: the next scan starts small again. */
  private readElsewhere(start: number, end: number): Uint8Array {
    this.scanBytes = this.readAhead * this.blockBytes;
    return this.readSource(start, end);
  }

  private readSource(start: number, end: number): Uint8Array {
    const bytes = this.source.read(start, end);
    this.lastStart = start;
    this.lastEnd = start + bytes.length;
    return bytes;
  }

  /** Where block `b` lies in the scan window, when the window holds all of it. */
  private inWindow(b: number): [number, number] | null {
    const w = this.window;
    if (!w) return null;
    const start = b * this.blockBytes - w.start;
    const end = Math.min(start + this.blockBytes, this.source.size - w.start);
    return start >= 0 && end > start && end <= w.bytes.length ? [start, end] : null;
  }

  /** A copy of block `b` from the scan window (a copy: the window is let go at the next scan). */
  private fromWindow(b: number): Uint8Array | undefined {
    const at = this.inWindow(b);
    return at ? this.window!.bytes.slice(at[0], at[1]) : undefined;
  }

  /** Whether blocks first…last are all at hand: kept whole (or short only where the source ends), or in the scan window. */
  private cached(first: number, last: number): boolean {
    for (let b = first; b <= last; b++) if (!this.whole(b, this.blocks.get(b)) && !this.inWindow(b)) return false;
    return true;
  }

  /** A short block read at the end of what the source covered then is whole only if that is still its end. */
  private whole(b: number, block: Uint8Array | undefined): block is Uint8Array {
    return block !== undefined && (block.length === this.blockBytes || b * this.blockBytes + block.length >= this.source.size);
  }

  /** Makes blocks first…last present and most recent, reading the missing ones in one range. */
  private fill(first: number, last: number): void {
    let lo = -1;
    let hi = -1;
    for (let b = first; b <= last; b++) {
      const block = this.blocks.get(b) ?? this.fromWindow(b);
      if (this.whole(b, block)) {
        // Re-inserted: a Map keeps insertion order, so the first key is the least recently used.
        this.blocks.delete(b);
        this.blocks.set(b, block);
      } else {
        if (lo < 0) lo = b;
        hi = b;
      }
    }
    if (lo < 0) return;
    const from = lo * this.blockBytes;
    const bytes = this.readElsewhere(from, Math.min(this.source.size, (hi + 1) * this.blockBytes));
    for (let b = lo; b <= hi; b++) {
      const at = (b - lo) * this.blockBytes;
      // Copied apart when the read spans blocks, so an old block never holds a whole read's buffer alive.
      const block = lo === hi ? bytes : bytes.slice(at, Math.min(bytes.length, at + this.blockBytes));
      this.blocks.delete(b);
      this.blocks.set(b, block);
    }
    while (this.blocks.size > this.maxBlocks) this.blocks.delete(this.blocks.keys().next().value!);
  }
}
