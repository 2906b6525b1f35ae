/**
 * Reading a plain log's lines back from its file instead of from a copy of
 * its bytes in memory (issue #15: the copy was the load's biggest part,
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
 * compacting 14 MB log in buffers over the load, which the collector freed late (issue #15).
 */
const BLOCK_BYTES = 8 * 1024;
/** Blocks kept, most recently used last: 2 MiB, a few screens' worth. */
const MAX_BLOCKS = 256;
/** Blocks read at once when a read goes on right after the last one (a scan): a round trip per 64 KiB, as before. */
const READ_AHEAD = 8;

/**
 * A ByteReader's bytes in aligned blocks, the recently used ones
 * kept: each read of the file has a fixed cost (a round trip to the
 * browser's file service), so neighbouring lines must not each pay it,
 * and a scan reads several blocks a round trip.
 * A range longer than half the cache (one huge tool result) is read
 * whole and not kept.
 */
export class BlockCache {
  private readonly blocks = new Map<number, Uint8Array>();

  /** The block after the last one read: a miss there is a scan going on. */
  private nextInScan = -1;

  constructor(private readonly source: ByteReader, private readonly blockBytes = BLOCK_BYTES, private readonly maxBlocks = MAX_BLOCKS, private readonly readAhead = READ_AHEAD) {}

  /** The bytes the source gives back: [0, size). */
  get size(): number {
    return this.source.size;
  }

  read(start: number, end: number): Uint8Array {
    if (end <= start) return new Uint8Array(0);
    const first = Math.floor(start / this.blockBytes);
    const last = Math.floor((end - 1) / this.blockBytes);
    if (last - first + 1 > this.maxBlocks / 2) return this.source.read(start, end);
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

  /** Makes blocks first…last present and most recent, reading the missing ones in one range. */
  private fill(first: number, last: number): void {
    let lo = -1;
    let hi = -1;
    for (let b = first; b <= last; b++) {
      const block = this.blocks.get(b);
      // A short block read at the end of what the source covered then is whole only if that is still its end.
      if (block && (block.length === this.blockBytes || b * this.blockBytes + block.length >= this.source.size)) {
        // Re-inserted: a Map keeps insertion order, so the first key is the least recently used.
        this.blocks.delete(b);
        this.blocks.set(b, block);
      } else {
        if (lo < 0) lo = b;
        hi = b;
      }
    }
    if (lo < 0) return;
    // A scan reads ahead, to blocks not yet kept and within the source.
    if (lo === this.nextInScan) {
      const end = Math.ceil(this.source.size / this.blockBytes) - 1;
      while (hi < Math.min(end, lo + this.readAhead - 1) && !this.blocks.has(hi + 1)) hi++;
    }
    this.nextInScan = hi + 1;
    const from = lo * this.blockBytes;
    const bytes = this.source.read(from, Math.min(this.source.size, (hi + 1) * this.blockBytes));
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
