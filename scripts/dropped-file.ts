import fs from 'node:fs';

/** How much one read of the file takes; one such read waits ahead of the load. */
const READ_BYTES = 512 * 1024;

/**
 * A log on disk as the bench's stand-in for a file dropped on the page.
 *
 * Chromium reads a File on another thread while the page's worker is busy and
 * hands over what it has read: about 1.5 MB a chunk while a big log loads, and
 * the load waited 0.1-0.2 s of its 3.9 s for the bytes of the real-shaped 1M log
 * (measured in the browser; docs/performance.md). Node's own file-backed Blob reads 64 KiB only when
 * asked, so the same load waited 0.35-0.6 s there: a cost of Node's Blob, not of
 * the app. This Blob's stream reads ahead instead: 512 KiB a read, the next read
 * made as soon as the load takes a chunk. (Reading 2 MiB ahead in 1 MiB reads
 * cut the wait a little more, 20 → 12 ms on the real-shaped 100k log, but those
 * megabytes then sit in the load's own heap, where Chromium keeps them in the
 * pipe from its file thread: on the generated long 100k log 11-12 MB outside the
 * young generation, against 10-11 MB this way and 9-10 MB from Node's Blob.)
 * The bench still measures Node's own Blob beside it.
 *
 * It is Node's file-backed Blob with only its stream replaced: size, slice and
 * `instanceof Blob` stay the file's, so the engine takes it as it takes a File.
 */
export async function readAheadFile(at: string): Promise<Blob> {
  const blob = await fs.openAsBlob(at);
  Object.defineProperty(blob, 'stream', { value: () => readAheadStream(at), configurable: true });
  return blob;
}

/** The file's bytes from the start, `readBytes` a chunk, one chunk read ahead of the reader. */
export function readAheadStream(at: string, readBytes = READ_BYTES): ReadableStream<Uint8Array> {
  let handle: fs.promises.FileHandle | null = null;
  let position = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      handle ??= await fs.promises.open(at, 'r');
      // A new buffer for each read: the reader may keep or transfer what it was handed.
      const piece = new Uint8Array(readBytes);
      const { bytesRead } = await handle.read(piece, 0, readBytes, position);
      if (bytesRead === 0) {
        await handle.close();
        handle = null;
        controller.close();
        return;
      }
      position += bytesRead;
      controller.enqueue(bytesRead === readBytes ? piece : piece.slice(0, bytesRead));
    },
    async cancel() {
      await handle?.close();
      handle = null;
    },
  }, { highWaterMark: readBytes, size: (chunk) => chunk.byteLength });
}
