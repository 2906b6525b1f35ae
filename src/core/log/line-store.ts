import { concatBytes } from '../util/bytes.ts';
import { BlockCache, type ByteReader } from './read-back.ts';
import { ByteBlocks } from './byte-blocks.ts';
import { ReusedBytes } from './reused-bytes.ts';

/**
 * The decoded bytes of a log, kept as the chunks they arrived in (no copy,
 * no string per line), so any line can be decoded again later — or read
 * back from the file (`readBackFrom`: a plain log's bytes, a zstd log's
 * frames), each chunk let go once its lines are found. Lines are
 * found with a byte scan that runs in step with the text split: a newline
 * byte never occurs inside a multi-byte UTF-8 sequence, so the n-th newline
 * of the text is the n-th 0x0A of the bytes. Reused bytes (a zstd frame
 * decoded into the decoder's arena) are kept as copies, in blocks written
 * again once their lines are let go.
 */
export class LineStore {
  private readonly chunks: Uint8Array[] = [];
  /** Global byte offset where each chunk starts. */
  private readonly bases: number[] = [];
  private total = 0;
  /** Newline scan cursor: chunk index and offset inside it. */
  private scanChunk = 0;
  private scanOffset = 0;
  /** Global offset where the line being assembled starts. */
  private lineStart = 0;
  private readonly decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });
  /** Where lines are read back from once their chunks are gone (the file, in blocks; it gives back [0, file.size)). */
  private file: BlockCache | null = null;
  /** The first chunk not yet let go by `sweep`. */
  private swept = 0;
  /** Where copies of reused bytes are kept (made at the first). */
  private copies: ByteBlocks | null = null;

  /**
   * `keepBehind`: bytes behind the scan kept while the log is read, though the file gives them back (none after).
   * `onLetGo`: told of each chunk as it is let go, with nothing here reading it again (the caller may free it if it is its own).
   */
  constructor(private readonly keep = true, private keepBehind = KEEP_BEHIND, private readonly onLetGo?: (chunk: Uint8Array) => void) {}

  /**
   * Lines are read back from `source` from now on, and no chunk is kept past
   * its scan (those scanned so far go now). `source` reads decoded offsets:
   * a plain log's file itself, or a compressed one through its frames, which
   * covers only the decoded bytes below `source.size` (it grows as frames
   * are indexed; the chunks past it stay).
   */
  readBackFrom(source: ByteReader): void {
    this.file = new BlockCache(source);
    this.sweep();
  }

  /** Lets go of the scanned chunks the source can give back, but for the last `keepBehind` bytes before the scan. */
  private sweep(): void {
    this.letGo(this.scanChunk, this.chunkStart(this.scanChunk) + this.scanOffset - this.keepBehind);
  }

  /**
   * The log's bytes are all read: the lines kept behind the scan for the load's look-backs go, and so
   * does the chunk the scan ended in (every newline in it is consumed; what follows the last is the
   * file's too). Bytes appended later (a followed log) are kept and let go as before.
   */
  readEnded(): void {
    this.keepBehind = 0;
    if (this.file) this.letGo(this.chunks.length, Infinity);
    // Without retention nothing is read again: the last chunks, which the scan never moved past, go too.
    if (!this.keep) for (let i = 0; i < this.chunks.length; i++) if (this.chunks[i] !== EMPTY) this.drop(i);
    this.copies?.trim();
  }

  /** Lets go of the chunks before `upTo` that end by `keepFrom` and that the file gives back, in order. */
  private letGo(upTo: number, keepFrom: number): void {
    const covered = this.file!.size;
    for (; this.swept < upTo; this.swept++) {
      const end = this.chunkStart(this.swept + 1);
      if (end > covered || end > keepFrom) break;
      this.drop(this.swept);
    }
  }

  /** Where chunk `i` starts (the bytes' end past the last chunk). */
  private chunkStart(i: number): number {
    return i < this.bases.length ? this.bases[i] : this.total;
  }

  /** Whether the chunks holding [start, end) are all still held. */
  private holds(start: number, end: number): boolean {
    if (!this.keep || start < this.chunkStart(this.swept)) return false;
    for (let ci = this.chunkAt(start); ci < this.chunks.length && this.bases[ci] < end; ci++) if (this.chunks[ci] === EMPTY) return false;
    return end <= this.total;
  }

  get byteLength(): number {
    return this.total;
  }

  add(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    if (chunk instanceof ReusedBytes) {
      // Kept as copies, a block at a time: let go as finely as the chunks of a plain log.
      const copies = (this.copies ??= new ByteBlocks());
      for (let o = 0; o < chunk.length; o += copies.blockBytes) this.push(copies.copy(chunk.subarray(o, o + copies.blockBytes)));
    } else this.push(chunk);
    // The source may cover more now (a compressed log's frames are indexed as they are decoded).
    if (this.file) this.sweep();
  }

  private push(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.bases.push(this.total);
    this.total += chunk.length;
  }

  /** [start, end) of the line the last `nextLine` ended (end excludes the newline). */
  lastStart = 0;
  lastEnd = 0;

  /**
   * Consumes the next newline byte and sets `lastStart`/`lastEnd` to the line
   * it ends (two fields, not a tuple per line: a long log has millions).
   * Called once per newline the text split finds, with the line's length in
   * UTF-16 units: a line has at least as many bytes as units (a unit is one
   * to three bytes, a pair four, a replaced bad byte one), and no newline byte
   * lies inside it, so the scan starts that far in. An ASCII line's newline is
   * the very byte there: one read instead of a scan of the line.
   */
  nextLine(minBytes = 0): void {
    const from = this.lineStart + minBytes;
    while (this.scanChunk < this.chunks.length) {
      const chunk = this.chunks[this.scanChunk];
      const at = Math.max(this.scanOffset, from - this.bases[this.scanChunk]);
      const nl = at >= chunk.length ? -1 : chunk[at] === 10 ? at : chunk.indexOf(10, at);
      if (nl >= 0) {
        this.scanOffset = nl + 1;
        this.lastStart = this.lineStart;
        this.lastEnd = this.bases[this.scanChunk] + nl;
        this.lineStart = this.lastEnd + 1;
        // A chunk behind the scan goes once the scan is `keepBehind` past its end, not when the next chunk
        // comes: a browser's File stream hands 2 MiB chunks to a busy worker, and two were held (docs/long-sessions.md's memory budget).
        if (this.swept < this.scanChunk && this.file) {
          const end = this.chunkStart(this.swept + 1);
          if (end + this.keepBehind <= this.bases[this.scanChunk] + this.scanOffset && end <= this.file.size) this.sweep();
        }
        return;
      }
      // Without retention a scanned chunk is dropped (a streaming pass that never re-reads); the file may hold it.
      if (!this.keep) this.drop(this.scanChunk);
      this.scanChunk++;
      this.scanOffset = 0;
      if (this.file) this.sweep();
    }
    // The text had a newline the bytes do not: impossible for UTF-8 input; keep going safely.
    this.lastStart = this.lastEnd = this.lineStart;
  }

  /** Whether lines can be read again (from kept chunks or from the file). */
  get keepsLines(): boolean {
    return this.keep;
  }

  /** Whether every byte so far is read back from the file (none held but the chunk being scanned). */
  get readsBackAll(): boolean {
    return this.file !== null && this.file.size >= this.total;
  }

  /** Where the line not yet ended by a newline starts. */
  get openLineStart(): number {
    return this.lineStart;
  }

  /**
   * Lets go of the chunks that lie wholly inside the open line (one being
   * skipped as too long to read): no line is ever read from them, and a
   * chunk that holds no newline is never needed by the scan either.
   */
  dropOpenLine(): void {
    for (let i = this.chunks.length - 1; i >= 0 && this.bases[i] >= this.lineStart && this.chunks[i] !== EMPTY; i--) this.drop(i);
  }

  /** Lets go of chunk `i` (a copy's block may then be written again). */
  private drop(i: number): void {
    const chunk = this.chunks[i];
    this.copies?.release(chunk);
    this.chunks[i] = EMPTY;
    if (chunk !== EMPTY) this.onLetGo?.(chunk);
  }

  /** Bytes still held: the chunks not let go (skipped lines', scanned ones without retention, those the file gives back). */
  get heldBytes(): number {
    return this.chunks.reduce((n, c) => n + c.length, 0);
  }

  /** Blocks holding copies of reused bytes now (a zstd log's frames), in use or spare. */
  get copyBlocks(): number {
    return this.copies?.blockCount ?? 0;
  }

  /** The bytes [start, end): a view when they sit in one chunk, else a copy. */
  bytes(start: number, end: number): Uint8Array {
    // A recent line (still held) is read from memory, as is any line without a file to read back from.
    if (this.file && !this.holds(start, end)) {
      const covered = this.file.size;
      if (end <= covered) return this.file.read(start, end);
      // A line across the end of what the file gives back: its start from the file, the rest from the chunks kept.
      if (start < covered) return concatBytes([this.file.read(start, covered), this.held(covered, end)]);
    }
    return this.held(start, end);
  }

  /** The bytes [start, end) from the chunks kept. */
  private held(start: number, end: number): Uint8Array {
    let ci = this.chunkAt(start);
    const first = this.chunks[ci];
    const from = start - this.bases[ci];
    if (from + (end - start) <= first.length) return first.subarray(from, from + (end - start));
    const out = new Uint8Array(end - start);
    let o = 0;
    let at = start;
    while (at < end && ci < this.chunks.length) {
      const c = this.chunks[ci];
      const off = at - this.bases[ci];
      const n = Math.min(c.length - off, end - at);
      out.set(c.subarray(off, off + n), o);
      o += n;
      at += n;
      ci++;
    }
    return out;
  }

  /** The text of bytes [start, end), with a trailing CR and a leading BOM removed as the reader does. */
  text(start: number, end: number): string {
    let s = this.decoder.decode(this.bytes(start, end));
    if (s.endsWith('\r')) s = s.slice(0, -1);
    return s;
  }

  private chunkAt(offset: number): number {
    // Kept inline: measured 30% slower through the helper (countAtOrBelow) on a per-line read path.
    let lo = 0;
    let hi = this.bases.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.bases[mid] <= offset) lo = mid; else hi = mid - 1;
    }
    return lo;
  }
}

const EMPTY = new Uint8Array(0);

/**
 * Bytes kept behind the scan though the file can give them back: a load looks back at recent lines
 * (each compaction's prefix analysis reads the messages the last call sent; on a generated 14 MB log,
 * half of those reads lay within 52 KB of the scan, all within 216 KB), and a read from the file
 * costs a round trip and a block (a zstd log's, a frame decoded again). Let go when the read ends.
 */
export const KEEP_BEHIND = 256 * 1024;
