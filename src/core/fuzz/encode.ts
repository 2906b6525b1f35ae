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

/** One frame per text, concatenated — the way DSH appends batches (§1.4). */
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
