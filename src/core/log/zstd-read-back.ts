import { decompress } from 'fzstd';
import { countAtOrBelow } from '../util/sorted.ts';
import { grownTo } from '../util/typed.ts';
import type { ByteReader } from './read-back.ts';
import type { WalkedFrame } from './zstd-walk.ts';

/**
 * Largest decoded frame read back: reading one line decodes its whole frame
 * again (the last ones decoded are kept, so the lines and blocks around it
 * do not decode it again).
 */
const MAX_FRAME_BYTES = 1024 * 1024;
/** Decoded frames kept for the next reads. */
const RECENT_FRAMES = 2;

/**
 * Where each zstd frame of a log lies, compressed and decoded, so a line can
 * be read back from the file by decoding its frame again (DSH writes a frame
 * per append batch: small ones). Only an unbroken run of frames from the
 * start is indexed; the first frame that cannot be (walked in several
 * pieces, too big, skippable, too short to be decoded apart) ends the run,
 * and the decoded bytes from there on stay in memory as before.
 */
export class ZstdFrameIndex {
  private cStart = new Float64Array(64);
  private cEnd = new Float64Array(64);
  private dStart = new Float64Array(64);
  private dEnd = new Float64Array(64);
  private n = 0;
  private closed = false;
  /** Decoded bytes [0, covered) can be read back from the file. */
  covered = 0;

  /**
   * A frame walked to its end, with the decoded bytes turned out so far
   * (the decoder has turned out all of a whole frame by its last byte). It
   * joins the run if it follows the last frame indexed and its output is
   * known apart: not skippable, no bigger than MAX_FRAME_BYTES, and of the
   * size its header declares. (Every frame's output is turned out by its
   * end: one streamed is told it is complete.)
   */
  frameEnded(frame: WalkedFrame, decodedAfter: number): void {
    if (this.closed) return;
    const start = this.n > 0 ? this.cEnd[this.n - 1] : 0;
    const size = decodedAfter - this.covered;
    const known = frame.start === start && !frame.skippable
      && size <= MAX_FRAME_BYTES && (frame.contentSize === null || frame.contentSize === size);
    if (!known) {
      this.closed = true;
      return;
    }
    if (this.n === this.cStart.length) {
      const grown = this.n * 2;
      this.cStart = grownTo(this.cStart, grown);
      this.cEnd = grownTo(this.cEnd, grown);
      this.dStart = grownTo(this.dStart, grown);
      this.dEnd = grownTo(this.dEnd, grown);
    }
    this.cStart[this.n] = frame.start;
    this.cEnd[this.n] = frame.end;
    this.dStart[this.n] = this.covered;
    this.dEnd[this.n] = decodedAfter;
    this.n++;
    this.covered = decodedAfter;
  }

  /** Stops the run (the decoder stopped: a fault, a torn frame). */
  close(): void {
    this.closed = true;
  }

  /** The indexed frame holding decoded byte `offset` (< covered). */
  frameAt(offset: number): number {
    return Math.max(0, countAtOrBelow(this.dStart.subarray(0, this.n), offset) - 1);
  }


  /**
   * The decoded bytes [start, end) (end ≤ covered) read back from `file`:
   * the frames holding them read in one range and decoded again. A frame
   * that no longer decodes to its size means the file changed.
   */
  read(file: ByteReader, start: number, end: number): Uint8Array {
    const out = new Uint8Array(end - start);
    if (end <= start) return out;
    const first = this.frameAt(start);
    const last = this.frameAt(end - 1);
    let compressed: Uint8Array | null = null;
    for (let f = first; f <= last; f++) {
      let plain = this.recent.get(f);
      if (!plain) {
        // The frames not at hand come in one read of the file.
        compressed ??= file.read(this.cStart[first], this.cEnd[last]);
        plain = this.decode(file, compressed.subarray(this.cStart[f] - this.cStart[first], this.cEnd[f] - this.cStart[first]), f);
        this.recent.set(f, plain);
        if (this.recent.size > RECENT_FRAMES) this.recent.delete(this.recent.keys().next().value!);
      }
      const from = Math.max(start, this.dStart[f]);
      const to = Math.min(end, this.dEnd[f]);
      out.set(plain.subarray(from - this.dStart[f], to - this.dStart[f]), from - start);
    }
    return out;
  }

  /** Frames decoded last, oldest first. */
  private readonly recent = new Map<number, Uint8Array>();

  /** Frame `f` decoded again from its bytes; one that no longer decodes to its size means the file changed. */
  private decode(file: ByteReader, bytes: Uint8Array, f: number): Uint8Array {
    let plain: Uint8Array;
    try {
      plain = decompress(bytes);
    } catch {
      plain = new Uint8Array(0);
    }
    if (plain.length !== this.dEnd[f] - this.dStart[f]) {
      const message = `the file changed on disk after it was opened: its zstd frame at byte ${this.cStart[f]} no longer decodes to the lines read from it; open it again.`;
      file.failed?.(message);
      throw new Error(message);
    }
    return plain;
  }
}

/** The decoded bytes of a zstd log as a ByteReader over what the index covers so far. */
export function zstdReadBack(file: ByteReader, index: ZstdFrameIndex): ByteReader {
  return {
    get size() {
      return index.covered;
    },
    read: (start, end) => index.read(file, start, end),
  };
}
