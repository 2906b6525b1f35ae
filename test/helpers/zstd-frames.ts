/**
 * Writes valid zstd frames made of raw (stored) blocks. Enough to test the
 * reader's frame handling (several frames, a torn last frame) without a
 * compressor dependency; real compressed data is covered by a fixture.
 */
const MAX_BLOCK = 128 * 1024;

export function zstdRawFrame(content: Uint8Array): Uint8Array {
  const blocks = Math.max(1, Math.ceil(content.length / MAX_BLOCK));
  const out = new Uint8Array(4 + 1 + 4 + blocks * 3 + content.length);
  let o = 0;
  out.set([0x28, 0xb5, 0x2f, 0xfd], o); o += 4;
  out[o++] = 0xa0; // FCS 4 bytes, single segment, no checksum, no dictionary
  new DataView(out.buffer).setUint32(o, content.length, true); o += 4;
  for (let b = 0; b < blocks; b++) {
    const part = content.subarray(b * MAX_BLOCK, Math.min(content.length, (b + 1) * MAX_BLOCK));
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
  const enc = new TextEncoder();
  const frames = texts.map((t) => zstdRawFrame(enc.encode(t)));
  const total = frames.reduce((n, f) => n + f.length, 0);
  const out = new Uint8Array(total);
  let o = 0;
  for (const f of frames) { out.set(f, o); o += f.length; }
  return out;
}
