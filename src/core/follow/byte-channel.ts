/**
 * A byte source that is fed while it is read: the follower pushes each
 * appended piece of a growing log, and the one streaming load reads them as
 * they come. `idle()` tells when everything pushed has gone through the
 * load (the load asked for more and there is none), so the follower knows
 * its numbers are current.
 */
export class ByteChannel implements AsyncIterable<Uint8Array> {
  private readonly queue: Uint8Array[] = [];
  private closed = false;
  private ended = false;
  /** The reader is parked waiting for bytes. */
  private waiting = false;
  private wake: (() => void) | null = null;
  private idleWaiters: (() => void)[] = [];

  push(bytes: Uint8Array): void {
    if (this.closed) throw new Error('the byte channel is closed');
    if (bytes.length === 0) return;
    this.queue.push(bytes);
    this.wake?.();
  }

  /** No more bytes: the reader sees the end of input (the torn-tail rule applies from here). */
  close(): void {
    this.closed = true;
    this.wake?.();
  }

  /** Resolves once the reader has taken every byte pushed and waits for more, or has ended. */
  idle(): Promise<void> {
    if (this.ended || (this.waiting && this.queue.length === 0)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private settleIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    try {
      for (;;) {
        const next = this.queue.shift();
        if (next) { yield next; continue; }
        if (this.closed) return;
        this.waiting = true;
        this.settleIdle();
        await new Promise<void>((resolve) => { this.wake = resolve; });
        this.wake = null;
        this.waiting = false;
      }
    } finally {
      this.ended = true;
      this.settleIdle();
    }
  }
}
