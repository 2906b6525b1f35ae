/** Joins byte chunks into one array (a single chunk is returned as is). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

/**
 * Gives the memory of `bytes` back now instead of at the collector's next
 * full collection, by detaching its buffer: every view of it reads as empty
 * from then on. Only for bytes nothing else will read. A view over part of a
 * buffer is left alone (another view may share it), as is a shared one.
 * Returns whether it was released.
 *
 * A file's chunks are garbage once its lines are read, but each one's memory
 * stays counted until its buffer object is collected (about a quarter of
 * the ArrayBuffers' peak in Chromium's load worker on the generated 10 MB log). `ArrayBuffer.prototype.transfer(0)` frees the memory at
 * once; where it is missing (Node 20), a transfer to a clone that is dropped
 * moves it to an object the next minor collection frees.
 */
export function releaseBytes(bytes: Uint8Array): boolean {
  const buffer = bytes.buffer;
  if (!(buffer instanceof ArrayBuffer) || buffer.byteLength === 0 || bytes.byteOffset !== 0 || bytes.byteLength !== buffer.byteLength) return false;
  const transfer = (buffer as { transfer?: (length: number) => ArrayBuffer }).transfer;
  if (typeof transfer === 'function') transfer.call(buffer, 0);
  else structuredClone(buffer, { transfer: [buffer] });
  return true;
}
