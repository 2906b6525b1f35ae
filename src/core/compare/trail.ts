import { eventMessage } from '../messages/derive.ts';
import type { Message } from '../messages/types.ts';
import { SURFACE_CHANGE } from '../replay/replay-index.ts';
import { indexOfSeq } from '../replay/seq-index.ts';
import { contentHash } from '../requests/hash.ts';
import type { CompareRun } from './run.ts';

/**
 * The message identities of every call of one run, built in call order from
 * what changed since the previous call: a call whose context only grew
 * (prompt-and-requests §7.2, "each request within a turn strictly extends
 * the previous one") costs the messages appended since, read from the events
 * between the two cuts; only a call after a replace or a message projection
 * derives its whole context again (a replay seek). Two runs' calls are then
 * compared by hash chains, never by walking both contexts.
 */
export interface CallTrail {
  /** Leading messages this call shares with the previous call of its run. */
  kept: number;
  /** Identity hashes of the messages after those. */
  added: string[];
  /** Identity of the whole message list (a hash chain over every message). */
  sig: string;
}

/**
 * Message identity across runs: the message as sent, with its `id` renamed
 * to its order of first appearance in the run — one bijection per run, as
 * the request-reconstruction conformance maps ids (prompt-and-requests §8.3).
 * Two runs that sent the same messages under fresh ids compare equal; a
 * message whose content changed under the same id does not.
 */
export class MessageIdentity {
  private readonly ids = new Map<string, number>();

  hash(message: Message): string {
    return contentHash(JSON.stringify(this.normalized(message)));
  }

  /** The message with its id renamed (the input is never changed). */
  normalized(message: Message): Message {
    if (typeof message?.id !== 'string') return message;
    let n = this.ids.get(message.id);
    if (n === undefined) { n = this.ids.size + 1; this.ids.set(message.id, n); }
    return { ...message, id: `message-${n}` };
  }
}

const EMPTY_CHAIN = '0';
const link = (chain: string, hash: string) => contentHash(`${chain}|${hash}`);

/**
 * The messages appended between two cuts, or null when anything but an
 * append changed the surface in between (then the caller derives the whole
 * context). The surface a call sees is the one before its cut (§8).
 */
function appendedBetween(run: CompareRun, fromCut: number, toCut: number): Message[] | null {
  const { seq, surfaceChange } = run.columns;
  const from = indexOfSeq(seq, fromCut);
  const to = indexOfSeq(seq, toCut);
  const out: Message[] = [];
  for (let i = from; i < to; i++) {
    const change = surfaceChange[i];
    if (change === SURFACE_CHANGE.none || change === SURFACE_CHANGE.reject) continue;
    if (change !== SURFACE_CHANGE.append) return null;
    const event = run.eventAt(seq[i]);
    if (!event) return null;
    // A projection would be its own surface change in the range (handled above): the stored message is the one sent.
    const message = eventMessage(event);
    if (message) out.push(message);
  }
  return out;
}

/** Leading entries two hash lists share. */
export function sharedPrefix(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** Every call's trail, in call order. */
export function buildTrails(run: CompareRun): CallTrail[] {
  const identity = new MessageIdentity();
  const hashes: string[] = [];
  const chain: string[] = [EMPTY_CHAIN];
  const out: CallTrail[] = [];
  const calls = run.requests;
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i];
    let appended = i > 0 ? appendedBetween(run, calls[i - 1].cut, call.cut) : null;
    // The count must match what the analysis counted at the cut; anything else is read again whole.
    if (appended && hashes.length + appended.length !== call.messageCount) appended = null;
    let kept: number;
    let added: string[];
    if (appended) {
      kept = hashes.length;
      added = appended.map((m) => identity.hash(m));
    } else {
      const all = call.messages.map((m) => identity.hash(m));
      kept = sharedPrefix(hashes, all);
      added = all.slice(kept);
    }
    hashes.length = kept;
    chain.length = kept + 1;
    for (const h of added) {
      hashes.push(h);
      chain.push(link(chain[chain.length - 1], h));
    }
    out.push({ kept, added, sig: chain[chain.length - 1] });
  }
  return out;
}

/**
 * A run's message list replayed call by call from its trails (the hashes
 * and their chain), so two runs walked side by side find the first
 * differing message of a pair by binary search, not by a scan.
 */
export class TrailCursor {
  readonly hashes: string[] = [];
  readonly chain: string[] = [EMPTY_CHAIN];

  apply(trail: CallTrail): void {
    this.hashes.length = trail.kept;
    this.chain.length = trail.kept + 1;
    for (const h of trail.added) {
      this.hashes.push(h);
      this.chain.push(link(this.chain[this.chain.length - 1], h));
    }
  }

  get length(): number {
    return this.hashes.length;
  }
}

/** Index of the first message at which two lists differ (equal lists: their length). */
export function firstDifferingMessage(a: TrailCursor, b: TrailCursor): number {
  // chain[k] is the identity of the first k messages: equal prefixes are a monotone predicate.
  let lo = 0;
  let hi = Math.min(a.length, b.length);
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (a.chain[mid] === b.chain[mid]) lo = mid; else hi = mid - 1;
  }
  return lo;
}
