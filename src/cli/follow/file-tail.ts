import fs from 'node:fs';
import { HEAD_BYTES, type TailRead } from '../../core/follow/tail-cursor.ts';

/** The most a single look reads past the offset (a big log already on disk is taken in several looks). */
export const MAX_READ = 8 << 20;

/** One look at a file on disk: its size, its first bytes and the bytes from `offset` on (at most MAX_READ). */
export function readFileTail(file: string, offset: number): TailRead {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const head = Buffer.alloc(Math.min(size, HEAD_BYTES));
    const headRead = head.length ? fs.readSync(fd, head, 0, head.length, 0) : 0;
    const want = Math.max(0, Math.min(size - offset, MAX_READ));
    const bytes = Buffer.alloc(want);
    const got = want ? fs.readSync(fd, bytes, 0, want, offset) : 0;
    return { size, head: new Uint8Array(head.buffer, head.byteOffset, headRead), bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, got) };
  } finally {
    fs.closeSync(fd);
  }
}
