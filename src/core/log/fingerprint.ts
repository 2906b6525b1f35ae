/**
 * A short fingerprint of a log file, for links that know which log they were
 * made on (docs/share-and-privacy.md): a 53-bit hash of the file's first bytes and its size.
 * It names a file, it does not protect one: nothing of the content can be
 * read back from it, and it never leaves the page except in the link the
 * user copies.
 */

/** How much of the start of the file is hashed (the rest is represented by the size). */
export const FINGERPRINT_HEAD_BYTES = 64 * 1024;

/** Collects the first FINGERPRINT_HEAD_BYTES of a byte stream and counts the rest, as the chunks pass. */
export class FingerprintTap {
  private readonly head = new Uint8Array(FINGERPRINT_HEAD_BYTES);
  private filled = 0;
  private size = 0;

  add(chunk: Uint8Array): void {
    this.size += chunk.length;
    if (this.filled < this.head.length) {
      const n = Math.min(chunk.length, this.head.length - this.filled);
      this.head.set(chunk.subarray(0, n), this.filled);
      this.filled += n;
    }
  }

  /** The fingerprint of everything added so far. */
  value(): string {
    return fingerprint(this.head.subarray(0, this.filled), this.size);
  }
}

/** What a fingerprint looks like, for a link or a file that names one (untrusted text). */
export const FINGERPRINT_PATTERN = /^[0-9a-z]{1,16}-[0-9a-z]{1,16}$/;

/** `<size in base 36>-<hash in base 36>` of a file's first bytes and its total size. */
export function fingerprint(head: Uint8Array, size: number): string {
  // Two 32-bit multiplicative lanes (cyrb53's mixing), combined into 53 bits.
  let h1 = 0xdeadbeef ^ size;
  let h2 = 0x41c6ce57 ^ size;
  for (let i = 0; i < head.length; i++) {
    const b = head[i];
    h1 = Math.imul(h1 ^ b, 2654435761);
    h2 = Math.imul(h2 ^ b, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hash = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return `${size.toString(36)}-${hash.toString(36)}`;
}
