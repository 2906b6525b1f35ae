/**
 * A load's input as it arrives: each chunk is handed to `onChunk` (the
 * link's fingerprint) on its way to the reader, and the time spent waiting
 * for the next one is summed. That wait is the source's, not the load's
 * work: a file's stream or a download. The load line and the bench say how
 * much of a load it was (a File's stream in Chromium hands over what it has
 * read ahead; Node's file-backed Blob reads 64 KiB per request).
 */
export interface WatchedChunks {
  chunks: AsyncGenerator<Uint8Array>;
  /** Milliseconds spent awaiting the source's next chunk so far. */
  waitedMs(): number;
}

export function watchChunks(source: AsyncIterable<Uint8Array>, onChunk: (chunk: Uint8Array) => void): WatchedChunks {
  let waited = 0;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    const it = source[Symbol.asyncIterator]();
    try {
      for (;;) {
        const from = performance.now();
        const next = await it.next();
        waited += performance.now() - from;
        if (next.done) return;
        onChunk(next.value);
        yield next.value;
      }
    } finally {
      // A load that stops early (cancelled, too big) lets the source go, as `for await` would.
      await it.return?.();
    }
  }
  return { chunks: chunks(), waitedMs: () => waited };
}
