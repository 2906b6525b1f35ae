import type { ByteReader } from '../core/log/read-back.ts';

interface SyncFileReader {
  readAsArrayBuffer(blob: Blob): ArrayBuffer;
}

/**
 * A dropped or picked File read back at any offset with FileReaderSync
 * (dedicated workers only: null elsewhere, and the load keeps the bytes).
 * Chromium refuses to read a File whose file changed on disk after it was
 * picked: the error then says what happened and what to do.
 */
export function fileReadBack(file: Blob): ByteReader | null {
  const Reader = (globalThis as { FileReaderSync?: new () => SyncFileReader }).FileReaderSync;
  if (!Reader) return null;
  const reader = new Reader();
  return {
    size: file.size,
    read(start, end) {
      let bytes: ArrayBuffer;
      try {
        bytes = reader.readAsArrayBuffer(file.slice(start, end));
      } catch {
        // The browser's own words blame permissions; the cause here is a file changed after it was picked.
        throw new Error(CHANGED_ON_DISK);
      }
      if (bytes.byteLength !== end - start) throw new Error(CHANGED_ON_DISK);
      return new Uint8Array(bytes);
    },
  };
}

/** The engine says which file (and says it once). */
const CHANGED_ON_DISK = 'the file changed on disk after it was opened, so its lines can no longer be read back: open it again, or follow it to see it grow.';
