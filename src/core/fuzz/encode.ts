import { concatBytes } from '../util/bytes.ts';
/**
 * Byte encodings the fuzzer wraps logs in, written without a compressor:
 * zstd frames of raw (stored) blocks and gzip members of stored deflate
 * blocks. Both are valid streams any decoder accepts, and their layout is
 * simple enough for mutators to aim at headers, block boundaries and
 * checksums. (test/helpers/zstd-frames.ts re-exports the zstd writer.)
 */
const MAX_ZSTD_BLOCK = 128 * 1024;
const enc = new TextEncoder();

export function zstdRawFrame(content: Uint8Array): Uint8Array {
  const blocks = Math.max(1, Math.ceil(content.length / MAX_ZSTD_BLOCK));
  const out = new Uint8Array(4 + 1 + 4 + blocks * 3 + content.length);
  let o = 0;
  out.set([0x28, 0xb5, 0x2f, 0xfd], o); o += 4;
  out[o++] = 0xa0; // FCS 4 bytes, single segment, no checksum, no dictionary
  new DataView(out.buffer).setUint32(o, content.length, true); o += 4;
  for (let b = 0; b < blocks; b++) {
    const part = content.subarray(b * MAX_ZSTD_BLOCK, Math.min(content.length, (b + 1) * MAX_ZSTD_BLOCK));
    const last = b === blocks - 1 ? 1 : 0;
    const header = last | (0 << 1) | (part.length << 3);
    out[o++] = header & 0xff;
    out[o++] = (header >> 8) & 0xff;
    out[o++] = (header >> 16) & 0xff;
    out.set(part, o); o += part.length;
  }
  return out;
}

/** Content for the expanding writers: bytes as they are, or one byte repeated (what compresses to almost nothing). */
export type RunPiece = Uint8Array | { repeat: number; count: number };

/**
 * A zstd frame of raw and RLE blocks with a window descriptor (no declared
 * size, no checksum): how a compressor writes long runs of one byte, and so
 * how a few kilobytes expand to gigabytes. `windowLog` sets the window
 * (2^windowLog bytes; blocks are capped at 128 KiB or the window).
 */
export function zstdFrame(pieces: RunPiece[], { windowLog = 17 } = {}): Uint8Array {
  const blockMax = Math.min(MAX_ZSTD_BLOCK, 2 ** windowLog);
  const blocks: { type: 0 | 1; size: number; body: Uint8Array }[] = [];
  for (const p of pieces) {
    if (p instanceof Uint8Array) {
      for (let o = 0; o < p.length; o += blockMax) blocks.push({ type: 0, size: Math.min(blockMax, p.length - o), body: p.subarray(o, o + blockMax) });
    } else {
      for (let left = p.count; left > 0; left -= blockMax) blocks.push({ type: 1, size: Math.min(blockMax, left), body: Uint8Array.of(p.repeat) });
    }
  }
  if (!blocks.length) blocks.push({ type: 0, size: 0, body: new Uint8Array(0) });
  const out = new Uint8Array(6 + blocks.reduce((n, b) => n + 3 + b.body.length, 0));
  out.set([0x28, 0xb5, 0x2f, 0xfd, 0x00, (windowLog - 10) << 3], 0);
  let o = 6;
  blocks.forEach((b, k) => {
    const header = (k === blocks.length - 1 ? 1 : 0) | (b.type << 1) | (b.size << 3);
    out[o++] = header & 0xff;
    out[o++] = (header >> 8) & 0xff;
    out[o++] = (header >> 16) & 0xff;
    out.set(b.body, o);
    o += b.body.length;
  });
  return out;
}

/** One frame per text, concatenated — the way DSH appends batches (dsh-log-rules L1.4). */
export function zstdFrames(texts: string[]): Uint8Array {
  return concatBytes(texts.map((t) => zstdRawFrame(enc.encode(t))));
}

/** A zstd skippable frame (magic 0x184D2A5?): decoders must step over it. */
export function zstdSkippableFrame(payload: Uint8Array, nibble = 0): Uint8Array {
  const out = new Uint8Array(8 + payload.length);
  out.set([0x50 | (nibble & 0xf), 0x2a, 0x4d, 0x18], 0);
  new DataView(out.buffer).setUint32(4, payload.length, true);
  out.set(payload, 8);
  return out;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A gzip member of stored deflate blocks (RFC 1951 §3.2.4, RFC 1952). */
export function gzipStored(content: Uint8Array): Uint8Array {
  const MAX = 65535;
  const blocks = Math.max(1, Math.ceil(content.length / MAX));
  const out = new Uint8Array(10 + blocks * 5 + content.length + 8);
  out.set([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff], 0);
  let o = 10;
  const view = new DataView(out.buffer);
  for (let b = 0; b < blocks; b++) {
    const part = content.subarray(b * MAX, Math.min(content.length, (b + 1) * MAX));
    out[o++] = b === blocks - 1 ? 1 : 0; // BFINAL, BTYPE=00
    view.setUint16(o, part.length, true); o += 2;
    view.setUint16(o, ~part.length & 0xffff, true); o += 2;
    out.set(part, o); o += part.length;
  }
  view.setUint32(o, crc32(content), true); o += 4;
  view.setUint32(o, content.length >>> 0, true);
  return out;
}

export { concatBytes };

/** Writes deflate's bit stream: values least-significant bit first, Huffman codes most-significant first (RFC 1951 §3.1.1). */
class BitWriter {
  private bytes: Uint8Array;
  private at = 0;
  private bit = 0;
  constructor(capacity: number) { this.bytes = new Uint8Array(Math.max(64, capacity)); }
  bits(value: number, n: number): void {
    for (let k = 0; k < n; k++) {
      if (this.at >= this.bytes.length) { const grown = new Uint8Array(this.bytes.length * 2); grown.set(this.bytes); this.bytes = grown; }
      if ((value >> k) & 1) this.bytes[this.at] |= 1 << this.bit;
      if (++this.bit === 8) { this.bit = 0; this.at++; }
    }
  }
  code(code: number, n: number): void {
    for (let k = n - 1; k >= 0; k--) this.bits((code >> k) & 1, 1);
  }
  finish(): Uint8Array { return this.bytes.subarray(0, this.at + (this.bit ? 1 : 0)); }
}

/** A literal byte in the fixed Huffman code (RFC 1951 §3.2.6). */
function fixedLiteral(w: BitWriter, v: number): void {
  if (v < 144) w.code(0x30 + v, 8); else w.code(0x190 + v - 144, 9);
}

/**
 * A gzip member of one fixed-Huffman deflate block in which each run is a
 * literal and then copies of 258 bytes at distance 1 (13 bits each): about
 * 160× expansion, the kind of stream a decompression bomb is made of.
 */
export function gzipRuns(pieces: RunPiece[]): Uint8Array {
  let total = 0;
  let crc = 0xffffffff;
  let estimate = 64;
  for (const p of pieces) estimate += p instanceof Uint8Array ? p.length * 1.2 : p.count / 150 + 4;
  const w = new BitWriter(estimate);
  w.bits(1, 1); // BFINAL
  w.bits(1, 2); // BTYPE 01: fixed Huffman codes
  for (const p of pieces) {
    if (p instanceof Uint8Array) {
      for (const v of p) { fixedLiteral(w, v); crc = CRC_TABLE[(crc ^ v) & 0xff] ^ (crc >>> 8); }
      total += p.length;
      continue;
    }
    const v = p.repeat & 0xff;
    let left = p.count;
    if (left > 0) { fixedLiteral(w, v); left--; }
    for (; left >= 258; left -= 258) {
      w.code(0xc5, 8); // length code 285: 258 bytes
      w.code(0, 5); // distance code 0: distance 1
    }
    for (; left > 0; left--) fixedLiteral(w, v);
    for (let k = 0; k < p.count; k++) crc = CRC_TABLE[(crc ^ v) & 0xff] ^ (crc >>> 8);
    total += p.count;
  }
  w.code(0, 7); // end of block (256)
  const body = w.finish();
  const out = new Uint8Array(10 + body.length + 8);
  out.set([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff], 0);
  out.set(body, 10);
  const view = new DataView(out.buffer);
  view.setUint32(10 + body.length, (crc ^ 0xffffffff) >>> 0, true);
  view.setUint32(14 + body.length, total >>> 0, true);
  return out;
}
