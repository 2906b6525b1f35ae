/** How long a load (or the projection helper) works before it lets the worker answer messages: rows, a cancel, a newer job. */
export const PAUSE_EVERY_MS = 40;

/**
 * A pause for a long loop: every `ms` of work, a promise that resolves on a
 * new task (a MessageChannel message, not a clamped timer), so the worker's
 * message handler runs in between; null the rest of the time.
 */
export function yieldEvery(ms: number): { pause(): Promise<void> | null; close(): void } {
  let last = Date.now();
  // Node (tests, the CLI) has setImmediate; a worker has MessageChannel.
  const immediate = (globalThis as { setImmediate?: (f: () => void) => void }).setImmediate;
  const channel = !immediate && typeof MessageChannel === 'function' ? new MessageChannel() : null;
  return {
    pause() {
      const now = Date.now();
      if (now - last < ms) return null;
      last = now;
      return new Promise<void>((resolve) => {
        if (immediate) immediate(resolve);
        else if (channel) { channel.port1.onmessage = () => resolve(); channel.port2.postMessage(null); }
        else setTimeout(resolve, 0);
      });
    },
    close() {
      channel?.port1.close();
    },
  };
}
