import { releaseBytes } from '../core/util/bytes.ts';

/**
 * The chunks a load's own stream made (a File's, a download's), each freed
 * as soon as the load lets it go rather than when a collection next finds
 * it (in Chromium's load worker the buffers of the generated
 * 10 MB log peaked at 19-22 MB, and at 15-17 MB with its chunks freed so).
 * Only chunks added here are freed: the line store also
 * lets go of bytes that are not the stream's (a zstd frame's copies, in
 * blocks it writes again), and of bytes a caller handed in.
 */
export class OwnedChunks {
  private readonly own = new WeakSet<Uint8Array>();

  /** The chunks of a stream the caller made (nothing but the load reads them), each noted as it passes. */
  async *track(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const chunk of chunks) {
      this.own.add(chunk);
      yield chunk;
    }
  }

  /**
   * The line store's `onLetGo`. A method bound to this object only: the session keeps it as long as its
   * line store, and a closure made inside a load kept that call's whole scope (4 MB more held after a
   * load of the generated 10 MB log).
   */
  readonly letGo = (chunk: Uint8Array): void => {
    if (this.own.delete(chunk)) releaseBytes(chunk);
  };
}
