import { contentHash } from '../requests/hash.ts';

/**
 * Trace and span ids made from the log alone, so that the same log exports
 * the same trace (a re-export replaces spans in a backend, it never doubles
 * them) and a subagent's log can link to its parent's trace without
 * reading it. Not cryptographic: they only need to be stable and distinct.
 */

/** A 16-byte trace id (32 hex digits) for a session id; never all zeros (an invalid id). */
export function traceIdOf(sessionId: string): string {
  return nonZero(contentHash(`dsh-trace\u0000${sessionId}`) + contentHash(`dsh-trace-low\u0000${sessionId}`));
}

/** An 8-byte span id (16 hex digits) for one span of a session, named by a key unique in it ("root", "turn:3", "call:17"…). */
export function spanIdOf(sessionId: string, key: string): string {
  return nonZero(contentHash(`dsh-span\u0000${sessionId}\u0000${key}`));
}

function nonZero(hex: string): string {
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}
