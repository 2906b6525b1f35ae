/**
 * Where a follower stands in a growing file, and whether the file is still
 * the one it was following: a file shorter than what was read, or one whose
 * first bytes changed (a new session reused the path), is a different log,
 * to be read again from its start.
 */

/** How much of the file's start is compared on each read (a header line, or a zstd frame's first bytes). */
export const HEAD_BYTES = 4096;

/** One look at the file: its size now, its first bytes now, and the bytes from the follower's offset on. */
export interface TailRead {
  size: number;
  /** The file's first min(size, HEAD_BYTES) bytes as they are now (may be empty when nothing changed). */
  head: Uint8Array;
  /** The bytes from the offset asked for to the end (empty: nothing new). */
  bytes: Uint8Array;
}

export type TailStep =
  | { kind: 'same' }
  | { kind: 'grew'; bytes: Uint8Array }
  /** The file is shorter than what was read: truncated or rewritten. */
  | { kind: 'shrunk'; size: number; offset: number }
  /** Its first bytes differ from what was read: another log at the same path. */
  | { kind: 'replaced' };

export class TailCursor {
  /** Bytes taken so far: the next read starts here. */
  offset = 0;
  /** The first bytes taken (up to HEAD_BYTES), compared with the file's on each read. */
  private head = new Uint8Array(0);

  /** How many head bytes a read should bring for the comparison. */
  get headBytes(): number {
    return this.head.length;
  }

  /** Judges a read made at `this.offset`; bytes of a 'grew' step are taken (the offset moves past them). */
  take(read: TailRead): TailStep {
    if (read.size < this.offset) return { kind: 'shrunk', size: read.size, offset: this.offset };
    if (read.head.length > 0 && !startsWith(read.head, this.head.subarray(0, Math.min(this.head.length, read.head.length)))) return { kind: 'replaced' };
    if (read.bytes.length === 0) return { kind: 'same' };
    if (this.head.length < HEAD_BYTES) {
      const n = Math.min(HEAD_BYTES - this.head.length, read.bytes.length);
      const grown = new Uint8Array(this.head.length + n);
      grown.set(this.head);
      grown.set(read.bytes.subarray(0, n), this.head.length);
      this.head = grown;
    }
    this.offset += read.bytes.length;
    return { kind: 'grew', bytes: read.bytes };
  }
}

function startsWith(a: Uint8Array, prefix: Uint8Array): boolean {
  if (a.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (a[i] !== prefix[i]) return false;
  return true;
}
