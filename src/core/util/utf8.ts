const encoder = new TextEncoder();
/** Where `encodeInto` writes the slices it counts; 3 bytes per UTF-16 unit is the most one takes. */
const SLICE = 1 << 15;
const scratch = new Uint8Array(SLICE * 3);

/**
 * UTF-8 length of a string prefix without keeping its encoding (a high
 * surrogate cut from its pair by `end` counts as the 3 bytes of U+FFFD). Long texts are
 * counted by the native encoder a slice at a time (several times faster than a
 * loop over char codes on the messages a long session sizes one by one).
 */
export function utf8Bytes(text: string, end = text.length): number {
  if (end < 64) return utf8BytesLoop(text, 0, end);
  let n = 0;
  for (let start = 0; start < end; ) {
    let stop = Math.min(end, start + SLICE);
    // Never split a surrogate pair between slices: each half alone would count as 3 bytes.
    if (stop < end && isHighSurrogate(text.charCodeAt(stop - 1))) stop--;
    n += encoder.encodeInto(start === 0 && stop === text.length ? text : text.slice(start, stop), scratch).written;
    start = stop;
  }
  return n;
}

export function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

export function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function utf8BytesLoop(text: string, from: number, end: number): number {
  let n = 0;
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (isHighSurrogate(c) && i + 1 < end) { n += 4; i++; }
    else n += 3;
  }
  return n;
}
