import { HEAD_BYTES, type TailRead } from '../../core/follow/tail-cursor.ts';

/** One look at a followed log: its size, its first bytes and what lies past `offset`. */
export interface TailReader {
  read(offset: number): Promise<TailRead>;
}

const EMPTY = new Uint8Array(0);

/** A local file through its handle: each look is a fresh snapshot of the file, read only from `offset`. */
export function handleTail(handle: FileSystemFileHandle): TailReader {
  return {
    async read(offset) {
      const file = await handle.getFile();
      const size = file.size;
      const head = new Uint8Array(await file.slice(0, Math.min(size, HEAD_BYTES)).arrayBuffer());
      const bytes = offset < size ? new Uint8Array(await file.slice(offset, size).arrayBuffer()) : EMPTY;
      return { size, head, bytes };
    },
  };
}

/** The total size a Content-Range header ends with (`bytes a-b/total`, or a star and the total for a 416). */
function totalOf(contentRange: string | null): number | null {
  const m = /\/(\d+)\s*$/.exec(contentRange ?? '');
  return m ? Number(m[1]) : null;
}

/**
 * A log at a URL, read with HTTP Range: each look asks for the file's first
 * bytes (its size comes with them, and they tell a replaced file), then,
 * when it grew, the bytes from the last one read. A server that ignores
 * ranges sends the whole file, which is judged by its size and start like
 * any look. No credentials, no referrer, never a body: the log's host
 * learns only that the file was read.
 */
export function urlTail(url: string): TailReader {
  const get = async (range: string) => {
    const res = await fetch(url, { headers: { Range: range }, cache: 'no-store', credentials: 'omit', referrerPolicy: 'no-referrer' });
    // An empty file has no byte 0 to give.
    if (res.status === 416) { await res.body?.cancel(); return { partial: true, total: totalOf(res.headers.get('content-range')) ?? 0, body: EMPTY }; }
    if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}`);
    return { partial: res.status === 206, total: totalOf(res.headers.get('content-range')), body: new Uint8Array(await res.arrayBuffer()) };
  };
  return {
    async read(offset) {
      const probe = await get(`bytes=0-${HEAD_BYTES - 1}`);
      // The whole file came back (no range support): its size and start are right there.
      if (!probe.partial) return { size: probe.body.length, head: probe.body.subarray(0, HEAD_BYTES), bytes: probe.body.subarray(Math.min(offset, probe.body.length)) };
      const size = probe.total ?? probe.body.length;
      const head = probe.body;
      if (size <= offset) return { size, head, bytes: EMPTY };
      if (size <= head.length) return { size, head, bytes: head.subarray(offset) };
      const tail = await get(`bytes=${offset}-`);
      return { size: tail.partial ? tail.total ?? offset + tail.body.length : tail.body.length, head, bytes: tail.partial ? tail.body : tail.body.subarray(offset) };
    },
  };
}
