/**
 * Follows the structure of a zstd stream as its bytes arrive (frame
 * headers, 3-byte block headers, checksums, skippable frames; RFC 8878,
 * dsh-log-rules L1.4) without decoding anything, so a frame that would
 * make the decoder allocate or produce more than a decoder may is stopped
 * before the decoder sees it. fzstd allocates a frame's whole window up
 * front (a single-segment frame's window is its declared content size).
 */

/** The largest window zstd decoders accept without being told otherwise (libzstd's default windowLogMax, 27). */
export const MAX_ZSTD_WINDOW = 2 ** 27;
/** Block_Maximum_Size (RFC 8878 §3.1.1.2.3): no block, RLE included, decodes to more. */
export const MAX_ZSTD_BLOCK = 128 * 1024;

/** A frame walked to its end: where it lies in the compressed bytes, and whether it was a skippable one. */
export interface WalkedFrame {
  start: number;
  end: number;
  skippable: boolean;
  /** The decoded size its header declares, if it does. */
  contentSize: number | null;
  /** What its raw and RLE blocks decode to (their headers say), and how many compressed blocks it has (up to 128 KiB each). */
  plainBlockBytes: number;
  compressedBlocks: number;
}

const ZSTD_MAGIC = 0xfd2fb528;
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;

type State =
  | { kind: 'magic' }
  | { kind: 'descriptor' }
  | { kind: 'header-rest'; fhd: number }
  | { kind: 'block' }
  | { kind: 'skippable-size' }
  /** Bytes to step over (block content, checksum, skippable payload), then `next`. */
  | { kind: 'skip'; next: 'block' | 'magic' }
  /** The bytes stopped making sense: the decoder reports that itself. */
  | { kind: 'lost' };

export class ZstdFrameWalker {
  private state: State = { kind: 'magic' };
  /** Bytes gathered for the fixed-size field being read. */
  private field: number[] = [];
  private need = 4;
  private skip = 0;
  /** Offset of the next byte fed, and where the current frame starts. */
  private offset = 0;
  private frameStart = 0;
  /** Where the frame or block at fault starts. */
  private faultAt = 0;
  private blockLimit = MAX_ZSTD_BLOCK;
  private checksum = false;
  /** The frame being walked is a skippable one (no output), and the frame that just ended, if any. */
  private skippable = false;
  private contentSize: number | null = null;
  private plainBlockBytes = 0;
  private compressedBlocks = 0;
  /** The frame being walked has had its header read (a skippable frame's magic number says all). */
  private headerRead = false;
  private ended: WalkedFrame | null = null;

  constructor(private readonly maxWindow = MAX_ZSTD_WINDOW) {}

  /**
   * Walks `bytes`; returns null, or why decoding must stop and how many of
   * these bytes come before the frame or block at fault (the decoder may have them).
   */
  feed(bytes: Uint8Array): { reason: string; keep: number } | null {
    const first = this.offset;
    const reason = this.walk(bytes, Infinity);
    return reason === null ? null : { reason, keep: Math.max(0, this.faultAt - first) };
  }

  /**
   * Walks the start of `bytes` that holds at most `maxBlocks` block headers
   * (so at most that many blocks' output, RLE included) and returns how
   * many bytes that is, with the fault if one came first. Once the walker
   * is lost (bytes the decoder will refuse) it takes `lostStep` bytes at a time.
   */
  take(bytes: Uint8Array, maxBlocks: number, lostStep: number): { used: number; fault: { reason: string; keep: number } | null; frame: WalkedFrame | null } {
    const first = this.offset;
    this.ended = null;
    if (this.state.kind === 'lost') return { used: Math.min(bytes.length, lostStep), fault: null, frame: null };
    // A piece also ends where a frame ends, so each complete frame's output is known apart (zstd read-back).
    const reason = this.walk(bytes, Math.max(1, maxBlocks), true);
    const used = this.offset - first;
    const frame = this.ended;
    if (reason !== null) return { used, fault: { reason, keep: Math.max(0, this.faultAt - first) }, frame };
    // Lost part-way: the rest goes in small steps, as before.
    const lost = (this.state as State).kind === 'lost';
    return { used: lost ? Math.max(used, Math.min(bytes.length, lostStep)) : used, fault: null, frame };
  }

  /** The bytes stopped making sense: all that follows goes to the decoder, which refuses it. */
  get lost(): boolean {
    return this.state.kind === 'lost';
  }

  /** What the frame being walked declares, once its header is read (null before). */
  get declared(): { contentSize: number | null; skippable: boolean } | null {
    return this.headerRead ? { contentSize: this.contentSize, skippable: this.skippable } : null;
  }

  /** Block headers `take` may still read in this call. */
  private blocksLeft = Infinity;

  private walk(bytes: Uint8Array, maxBlocks: number, stopAtFrameEnd = false): string | null {
    this.blocksLeft = maxBlocks;
    let i = 0;
    while (i < bytes.length) {
      if (stopAtFrameEnd && this.ended) return null;
      const s = this.state;
      if (s.kind === 'lost') return null;
      // The next field is a block header and the budget is spent: stop before it.
      if (s.kind === 'block' && this.field.length === 0 && this.blocksLeft === 0) return null;
      if (s.kind === 'skip') {
        const n = Math.min(this.skip, bytes.length - i);
        this.skip -= n;
        i += n;
        this.offset += n;
        if (this.skip === 0) this.enter(s.next);
        continue;
      }
      this.field.push(bytes[i++]);
      this.offset++;
      if (this.field.length < this.need) continue;
      const problem = this.fieldRead(this.field);
      this.field = [];
      if (problem) return problem;
    }
    return null;
  }

  /** Steps over `this.skip` bytes, then reads `next`. */
  private skipThen(next: 'magic' | 'block'): void {
    if (this.skip === 0) this.enter(next);
    else this.state = { kind: 'skip', next };
  }

  private enter(kind: 'magic' | 'block'): void {
    this.state = { kind };
    this.need = kind === 'magic' ? 4 : 3;
    if (kind === 'magic') {
      // Back at a magic number: the frame that started at frameStart ended here.
      this.ended = { start: this.frameStart, end: this.offset, skippable: this.skippable, contentSize: this.contentSize, plainBlockBytes: this.plainBlockBytes, compressedBlocks: this.compressedBlocks };
      this.frameStart = this.offset;
      this.headerRead = false;
    }
  }

  private fieldRead(f: number[]): string | null {
    const s = this.state;
    switch (s.kind) {
      case 'magic': {
        const magic = (f[0] | (f[1] << 8) | (f[2] << 16) | (f[3] << 24)) >>> 0;
        this.skippable = false;
        this.contentSize = null;
        this.plainBlockBytes = 0;
        this.compressedBlocks = 0;
        if (magic === ZSTD_MAGIC) { this.state = { kind: 'descriptor' }; this.need = 1; }
        else if (((magic & SKIPPABLE_MASK) >>> 0) === SKIPPABLE_MAGIC) { this.state = { kind: 'skippable-size' }; this.need = 4; this.skippable = true; this.headerRead = true; }
        else this.state = { kind: 'lost' };
        return null;
      }
      case 'skippable-size':
        this.skip = (f[0] | (f[1] << 8) | (f[2] << 16) | (f[3] << 24)) >>> 0;
        this.skipThen('magic');
        return null;
      case 'descriptor': {
        const fhd = f[0];
        // The reserved bit: an invalid frame, which the decoder reports as corrupt.
        if (fhd & 0x08) { this.state = { kind: 'lost' }; return null; }
        const single = (fhd >> 5) & 1;
        const dictBytes = [0, 1, 2, 4][fhd & 3];
        const fcsFlag = fhd >> 6;
        const fcsBytes = fcsFlag === 0 ? single : 1 << fcsFlag;
        // At least one byte follows: the window descriptor, or a single-segment frame's content size.
        this.state = { kind: 'header-rest', fhd };
        this.need = (single ? 0 : 1) + dictBytes + fcsBytes;
        return null;
      }
      case 'header-rest':
        return this.frameHeader(s.fhd, f);
      case 'block': {
        this.blocksLeft--;
        const header = f[0] | (f[1] << 8) | (f[2] << 16);
        const last = header & 1;
        const type = (header >> 1) & 3;
        const size = header >>> 3;
        // Reserved type 3: the decoder reports the corruption.
        if (type === 3) { this.state = { kind: 'lost' }; return null; }
        if (size > this.blockLimit) {
          this.faultAt = this.offset - 3;
          return `a zstd block in the frame at byte ${this.frameStart} ${type === 1 ? 'repeats a byte' : 'holds'} ${size} bytes, over the ${this.blockLimit}-byte block limit (RFC 8878 §3.1.1.2.3)`;
        }
        if (type === 2) this.compressedBlocks++;
        else this.plainBlockBytes += size;
        // The content (one byte for RLE), then after the last block the optional 4-byte checksum.
        this.skip = (type === 1 ? 1 : size) + (last && this.checksum ? 4 : 0);
        this.skipThen(last ? 'magic' : 'block');
        return null;
      }
      default:
        return null;
    }
  }

  /** The frame header's window: what the decoder allocates for this frame. */
  private frameHeader(fhd: number, rest: number[]): string | null {
    const single = (fhd >> 5) & 1;
    const dictBytes = [0, 1, 2, 4][fhd & 3];
    let at = 0;
    let window = 0;
    if (!single) {
      const wd = rest[at++];
      const base = 2 ** (10 + (wd >> 3));
      window = base + (base / 8) * (wd & 7);
    }
    at += dictBytes;
    const fcsBytes = rest.length - at;
    let contentSize = 0;
    for (let k = fcsBytes - 1; k >= 0; k--) contentSize = contentSize * 256 + rest[at + k];
    if (fcsBytes === 2) contentSize += 256;
    if (fcsBytes > 0) this.contentSize = contentSize;
    if (single) window = contentSize;
    this.checksum = ((fhd >> 2) & 1) === 1;
    this.blockLimit = Math.min(MAX_ZSTD_BLOCK, Math.max(window, 1));
    if (window > this.maxWindow) {
      this.faultAt = this.frameStart;
      return `the zstd frame at byte ${this.frameStart} needs a ${window}-byte window${single ? ' (its declared size)' : ''}, over the ${this.maxWindow} bytes zstd decoders accept by default`;
    }
    this.headerRead = true;
    this.enter('block');
    return null;
  }
}
