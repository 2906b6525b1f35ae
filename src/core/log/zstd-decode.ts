import { Decompress, decompress } from 'fzstd';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';
import type { ZstdFrameIndex } from './zstd-read-back.ts';
import { ReusedBytes } from './reused-bytes.ts';
import { MAX_ZSTD_BLOCK, ZstdFrameWalker, type WalkedFrame } from './zstd-walk.ts';

/** fzstd's error code for input that ends inside a frame. */
const ZSTD_UNEXPECTED_EOF = 5;

/**
 * Blocks per decoder push: at most 8 blocks of 128 KiB, 1 MiB of output (RLE included). 64 was
 * as fast and left more output alive at once (a 10 MB zstd load peaked 49-56 MB, not 46-51).
 */
const ZSTD_PIECE_BLOCKS = 8;
/** Bytes per push once the structure is lost (the decoder is about to refuse them): as before, 256. */
const ZSTD_LOST_STEP = 256;
/**
 * Largest frame decoded whole, by the size its header declares. DSH writes a frame per append
 * batch (dsh-log-rules L1.4): a few lines, each declaring its size. Bigger frames, and frames that declare
 * none, are decoded as they stream.
 */
const WHOLE_FRAME_BYTES = 1024 * 1024;
/** Compressed bytes a frame decoded whole may take: its declared size, its block headers and checksum, and slack. */
const WHOLE_FRAME_INPUT = WHOLE_FRAME_BYTES + 64 * 1024;
/** Decoded bytes queued before they are handed on (a 64 KiB chunk of small frames may declare far more). */
const HAND_ON_AT = 1024 * 1024;

/**
 * Decodes a zstd stream (concatenated frames, L1.4) to plaintext chunks.
 *
 * A frame that declares its size (up to WHOLE_FRAME_BYTES) is gathered and
 * decoded whole, straight into a buffer of that size: fzstd's streaming
 * decoder allocates a window as big as the frame, copies each block out of
 * it and joins input split across chunks — about three times the log's size
 * in buffers the collector must then find (the bench's 10 MB zstd log peaked
 * at 21-24 MB outside the young generation that way, 17-20 MB this way; its
 * plaintext at 13-14 MB). Any other frame,
 * and any whole frame the decoder refuses, streams through a decoder of its
 * own in pieces of a few blocks, so what one push turns out stays bounded
 * (a few bytes of RLE blocks decode to megabytes).
 *
 * With `reuse`, whole frames are decoded into one arena, written again once
 * what it holds has been handed on: the consumer keeps a copy of what it keeps
 * (the bytes are ReusedBytes). A load then leaves no buffer per frame for the
 * collector.
 *
 * Findings (a torn last frame, a corrupt one, a frame over the decoder's
 * limits) go to `diagnostics`; everything decoded before them is yielded.
 */
export async function* zstdFrames(source: AsyncGenerator<Uint8Array>, diagnostics: Diagnostic[], frames: ZstdFrameIndex, options: { reuse?: boolean } = {}): AsyncGenerator<Uint8Array> {
  const out = new OutputQueue();
  const whole = new WholeFrame();
  const arena = options.reuse ? new Arena() : null;
  const walker = new ZstdFrameWalker();
  /** The decoder of the frame being streamed, if it is. */
  let streaming: Decompress | null = null;
  /** Hands on everything queued; the arena is then free to be written again (the consumer copied what it keeps). */
  const handOn = function* (): Generator<Uint8Array> {
    yield* out.drain();
    arena?.clear();
  };
  /** Starts streaming the frame being walked: the pieces held for it first, each handed on before the next. */
  const stream = function* (): Generator<Uint8Array> {
    streaming ??= new Decompress((data) => out.push(data));
    for (const piece of whole.letGo()) {
      streaming.push(piece);
      yield* handOn();
    }
  };
  try {
    for await (const chunk of source) {
      for (let o = 0; o < chunk.length; ) {
        const { used, fault, frame } = walker.take(chunk.subarray(o), ZSTD_PIECE_BLOCKS, ZSTD_LOST_STEP);
        const piece = chunk.subarray(o, o + used);
        o += used;
        if (fault) {
          // Everything before the frame or block at fault is decoded and kept.
          yield* stream();
          streaming!.push(piece.subarray(0, fault.keep));
          frames.close();
          yield* handOn();
          diagnostics.push(diagnostic('bytes.zstd-limit', `zstd decoding stopped: ${fault.reason}; lines decoded before it are kept.`));
          return;
        }
        // The piece belongs to the frame it ends, or to the one still being walked.
        const declared = frame ? null : walker.declared;
        const wholeable = frame ? gathered(frame) : walker.lost ? false : declared ? gathered(declared) : true;
        if (!streaming && wholeable && whole.heldBytes + used <= WHOLE_FRAME_INPUT) whole.hold(piece);
        else {
          yield* stream();
          streaming!.push(piece);
        }
        if (frame) {
          if (!streaming) {
            // Held whole to its end, so it was gathered: it declares its size.
            const size = frame.contentSize!;
            // The arena is written again only once all it holds is handed on.
            if (arena && !arena.fits(size)) yield* handOn();
            if (!(declaresPlausibly(frame) && whole.decode(size, out, arena))) yield* stream();
          }
          if (streaming) {
            // The frame is complete: its decoder turns out all it holds (fzstd holds back a start of under 18 bytes).
            (streaming as Decompress).push(EMPTY, true);
            streaming = null;
          }
          frames.frameEnded(frame, out.total);
        }
        if (streaming || out.queuedBytes >= HAND_ON_AT) yield* handOn();
      }
      yield* handOn();
    }
    frames.close();
    // A frame still open is torn: its decoder says so when told the input ended.
    if (whole.heldBytes > 0 || streaming) {
      yield* stream();
      streaming!.push(EMPTY, true);
    }
    yield* handOn();
  } catch (err) {
    frames.close();
    yield* handOn();
    const code = (err as { code?: number }).code;
    if (code === ZSTD_UNEXPECTED_EOF) {
      diagnostics.push(diagnostic('bytes.torn-frame', 'The last zstd frame is incomplete (torn tail); complete lines decoded from it are kept.'));
    } else {
      diagnostics.push(diagnostic('bytes.zstd-corrupt', `zstd decoding failed: ${(err as Error).message}; lines decoded before the bad frame are kept.`));
    }
  }
}

const EMPTY = new Uint8Array(0);

/** Whether a frame with this header is gathered to be decoded whole. */
const gathered = (frame: { contentSize: number | null; skippable: boolean }): boolean =>
  !frame.skippable && frame.contentSize !== null && frame.contentSize <= WHOLE_FRAME_BYTES;

/**
 * Whether a frame's blocks can decode to the size its header declares (raw and RLE blocks to
 * their stated sizes, a compressed one to at most 128 KiB). A whole frame is decoded into a
 * buffer of the declared size, which the decoder does not check; a frame that cannot match it
 * streams instead, and its decoder turns out what its blocks hold.
 */
const declaresPlausibly = (frame: WalkedFrame): boolean =>
  frame.contentSize! >= frame.plainBlockBytes && frame.contentSize! <= frame.plainBlockBytes + frame.compressedBlocks * MAX_ZSTD_BLOCK;

/** Decoded bytes waiting to be handed on, in order. */
class OutputQueue {
  private readonly queue: Uint8Array[] = [];
  queuedBytes = 0;
  /** Decoded bytes queued so far, handed on or not. */
  total = 0;

  push(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.queue.push(bytes);
    this.queuedBytes += bytes.length;
    this.total += bytes.length;
  }

  *drain(): Generator<Uint8Array> {
    while (this.queue.length) {
      const bytes = this.queue.shift()!;
      this.queuedBytes -= bytes.length;
      yield bytes;
    }
  }
}

/** Where whole frames are decoded when the consumer copies what it keeps: written again from the start once handed on. */
class Arena {
  private bytes = new ReusedBytes(ARENA_BYTES);
  private fill = 0;

  /** Whether `size` more bytes fit before the arena must be handed on and cleared. */
  fits(size: number): boolean {
    return this.fill + size <= this.bytes.length;
  }

  /** Everything decoded into it has been handed on. */
  clear(): void {
    this.fill = 0;
  }

  /** The next `size` bytes (a frame bigger than the arena grows it, once it is clear). */
  next(size: number): ReusedBytes {
    if (size > this.bytes.length) this.bytes = new ReusedBytes(bufferSizeFor(size));
    return this.bytes.subarray(this.fill, this.fill + size) as ReusedBytes;
  }

  /** The `size` bytes `next` gave are in use until the next clear. */
  take(size: number): void {
    this.fill += size;
  }
}

/**
 * The arena's size to begin with: many of the small frames DSH writes (a batch of lines each) are
 * handed on together; a bigger frame grows it to its size, and is handed on alone.
 */
const ARENA_BYTES = 64 * 1024;

/** The pieces of the frame being walked while it may still be decoded whole. */
class WholeFrame {
  private held: Uint8Array[] = [];
  heldBytes = 0;
  /** A frame that arrived in several pieces is joined here; the decoder keeps no hold of its input. */
  private joined = EMPTY;

  hold(piece: Uint8Array): void {
    this.held.push(piece);
    this.heldBytes += piece.length;
  }

  /** The pieces held, which the caller now streams. */
  letGo(): Uint8Array[] {
    const held = this.held;
    this.held = [];
    this.heldBytes = 0;
    return held;
  }

  /**
   * Decodes the frame held (complete, declaring `size` bytes) and queues its bytes; false, with
   * the pieces still held, if the decoder refuses it. Without an arena, fzstd decodes a frame that
   * declares its size straight into a new buffer of that size; with one, into the arena's next
   * `size` bytes (zeroed first: what the blocks do not write reads as zeros either way).
   */
  decode(size: number, out: OutputQueue, arena: Arena | null): boolean {
    let plain: Uint8Array;
    try {
      const input = this.held.length === 1 ? this.held[0] : this.join();
      plain = arena ? decompress(input, arena.next(size).fill(0)) : decompress(input);
    } catch {
      return false;
    }
    if (plain.length !== size) return false;
    arena?.take(size);
    this.letGo();
    out.push(plain);
    return true;
  }

  private join(): Uint8Array {
    if (this.joined.length < this.heldBytes) this.joined = new Uint8Array(bufferSizeFor(this.heldBytes));
    let o = 0;
    for (const piece of this.held) { this.joined.set(piece, o); o += piece.length; }
    return this.joined.subarray(0, o);
  }
}

/**
 * A buffer's new size for `size` bytes: the next 64 KiB past it. Frames of one log are of about one
 * size, so a few steps fit them all; doubling made the arena and the joined input twice the frame.
 */
const bufferSizeFor = (size: number): number => (Math.floor(size / GROW_STEP) + 1) * GROW_STEP;
const GROW_STEP = 64 * 1024;
