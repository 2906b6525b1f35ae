import { deriveMessages, eventMessage } from '../messages/derive.ts';
import type { Message } from '../messages/types.ts';
import { SURFACE_CHANGE } from '../replay/replay-index.ts';
import { contentHash } from '../requests/hash.ts';
import type { ModelRequest } from '../requests/build.ts';
import { firstWhere } from '../util/sorted.ts';
import type { CompareRun } from './run.ts';

/**
 * The message identities of every call of one run, built in call order from
 * what changed since the previous call: a call whose context only grew
 * (dsh-log-rules P7.2: within a turn each request extends
 * the previous one) costs the messages appended since, read from the events
 * between the two cuts; only a call after a replace or a message projection
 * derives its context again (a replay seek), and hashes only the messages
 * after those the request analysis found kept. Two runs' calls are then
 * compared by hash chains, never by walking both contexts.
 */
export interface CallTrail {
  /** Leading messages this call shares with the previous call of its run. */
  kept: number;
  /**
   * The hash chain over the messages after those: entry k identifies the
   * first kept + k + 1 messages (each link hashes the one before it with
   * the next message's identity).
   */
  links: string[];
  /** Identity of the whole message list (the chain's last link). */
  sig: string;
}

/**
 * Message identity across runs: the message as sent, with its `id` renamed
 * to its order of first appearance in the run — one bijection per run, as
 * the request-reconstruction conformance maps ids (P8.3).
 * Two runs that sent the same messages under fresh ids compare equal; a
 * message whose content changed under the same id does not.
 */
export class MessageIdentity {
  private readonly ids: Map<string, number>;
  /** A message object is hashed once (a log read whole derives the same objects again). */
  private readonly hashes = new WeakMap<object, string>();

  /** `numbered`: ids already numbered, in order (a run that resumes another's numbering). */
  constructor(numbered: Iterable<[string, number]> = []) {
    this.ids = new Map(numbered);
  }

  /** Ids numbered so far. */
  get size(): number {
    return this.ids.size;
  }

  /** This identity as it was when it had numbered `count` ids (ids are only ever added, in order). */
  asOf(count: number): MessageIdentity {
    const first: [string, number][] = [];
    for (const entry of this.ids) {
      if (first.length === count) break;
      first.push(entry);
    }
    return new MessageIdentity(first);
  }

  hash(message: Message): string {
    let h = this.hashes.get(message);
    if (h === undefined) {
      h = contentHash(JSON.stringify(this.normalized(message)));
      if (typeof message === 'object' && message !== null) this.hashes.set(message, h);
    }
    return h;
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
 * context). The surface a call sees is the one before its cut (P8).
 */
function appendedBetween(run: CompareRun, fromCut: number, toCut: number): Message[] | null {
  const { surfaceChange } = run.columns;
  const from = run.indexOfSeq(fromCut);
  const to = run.indexOfSeq(toCut);
  const out: Message[] = [];
  for (let i = from; i < to; i++) {
    const change = surfaceChange[i];
    if (change === SURFACE_CHANGE.none || change === SURFACE_CHANGE.reject) continue;
    if (change !== SURFACE_CHANGE.append) return null;
    const event = run.eventAt(run.seqAt(i)!);
    if (!event) return null;
    // A projection would be its own surface change in the range (handled above): the stored message is the one sent.
    const message = eventMessage(event);
    if (message) out.push(message);
  }
  return out;
}

/**
 * The messages of a call from index `kept` on: the last ones of the surface
 * before its cut, read from its last nodes backwards — a rewrite near the end
 * of a long context costs the messages after it, not the whole context.
 */
function messagesFrom(run: CompareRun, call: ModelRequest, kept: number): readonly Message[] {
  const need = call.messageCount - kept;
  if (!run.surfaceBefore) return call.messages.slice(kept);
  const state = run.surfaceBefore(call.cut);
  const out: Message[] = [];
  for (let i = state.nodes.length - 1; i >= 0 && out.length < need; i--) {
    const event = run.eventAt(state.nodes[i]);
    const message = event && eventMessage(event, state.projected);
    if (message) out.push(message);
  }
  // Fewer messages than the analysis counted: read them the ordinary way (deriveMessages, L6.2).
  return out.length === need ? out.reverse() : deriveMessages(state, run.eventAt).slice(kept);
}

/** A run's trails as built, with what numbered its messages: another run holding the same first calls resumes from it. */
export interface TrailBuild {
  trails: CallTrail[];
  identity: MessageIdentity;
  /** Ids the identity had numbered after each call. */
  idsAfter: Uint32Array;
}

/** Another run's build to resume from: `run` holds this run's events before seq `before`, at the same seqs. */
export interface TrailResume {
  run: CompareRun;
  from: TrailBuild;
  before: number;
}

/**
 * Every call's trail, in call order. With `resume`, the calls both runs cut
 * before its seq (sharedCalls) are taken from the other run's build: they
 * saw the same events (a what-if's edited log before its first edit), so
 * their trails, and the ids numbered by then, are the same; only the calls
 * after them are read.
 */
export function buildTrails(run: CompareRun, resume?: TrailResume): TrailBuild {
  const shared = resume ? Math.min(sharedCalls(resume.run, run, resume.before), resume.from.trails.length) : 0;
  const identity = resume && shared > 0 ? resume.from.identity.asOf(resume.from.idsAfter[shared - 1]) : new MessageIdentity();
  // chain[k] identifies the first k messages of the current call.
  const cursor = new TrailCursor();
  const out: CallTrail[] = [];
  const calls = run.requests;
  const idsAfter = new Uint32Array(calls.length);
  for (let i = 0; i < shared; i++) {
    const trail = resume!.from.trails[i];
    cursor.apply(trail);
    out.push(trail);
    idsAfter[i] = resume!.from.idsAfter[i];
  }
  const chain = cursor.chain;
  for (let i = shared; i < calls.length; i++) {
    const call = calls[i];
    const count = chain.length - 1;
    let appended = i > 0 ? appendedBetween(run, calls[i - 1].cut, call.cut) : null;
    // The count must match what the analysis counted at the cut; anything else is read again.
    if (appended && count + appended.length !== call.messageCount) appended = null;
    let kept: number;
    let fresh: readonly Message[];
    if (appended) {
      kept = count;
      fresh = appended;
    } else {
      // After a replace or a projection the request analysis already knows how many leading
      // messages stayed (P7.2): only the rest is hashed.
      kept = call.prefix.previous === i - 1 ? Math.max(0, Math.min(call.prefix.keptMessages, count, call.messageCount)) : 0;
      fresh = messagesFrom(run, call, kept);
    }
    chain.length = kept + 1;
    const links = fresh.map((m) => {
      const next = link(chain[chain.length - 1], identity.hash(m));
      chain.push(next);
      return next;
    });
    out.push({ kept, links, sig: chain[chain.length - 1] });
    idsAfter[i] = identity.size;
  }
  return { trails: out, identity, idsAfter };
}

/**
 * How many first calls two runs share when B holds A's events before
 * `beforeSeq` (a what-if's edited log before its first edit): the calls cut
 * before it, as long as B's are at the same cuts with the same message counts
 * (anything else, and B's calls are read from the start of the difference).
 */
export function sharedCalls(a: CompareRun, b: CompareRun, beforeSeq: number): number {
  const n = Math.min(a.requests.length, b.requests.length);
  let i = 0;
  while (i < n && a.requests[i].cut < beforeSeq && b.requests[i].cut === a.requests[i].cut && b.requests[i].messageCount === a.requests[i].messageCount) i++;
  return i;
}

/**
 * A run's message list replayed call by call from its trails (as a hash
 * chain), so two runs walked side by side find the first differing message
 * of a pair by binary search, not by a scan.
 */
export class TrailCursor {
  /** chain[k] identifies the first k messages. */
  readonly chain: string[] = [EMPTY_CHAIN];

  apply(trail: CallTrail): void {
    this.chain.length = trail.kept + 1;
    for (const l of trail.links) this.chain.push(l);
  }

  get length(): number {
    return this.chain.length - 1;
  }
}

/** Index of the first message at which two lists differ (equal lists: their length). */
export function firstDifferingMessage(a: TrailCursor, b: TrailCursor): number {
  // chain[k] is the identity of the first k messages: equal prefixes are a monotone predicate,
  // and message m differs where chain[m + 1] does.
  return firstWhere(Math.min(a.length, b.length), (m) => a.chain[m + 1] !== b.chain[m + 1]);
}
