import type { LogEvent } from '../log/types.ts';
import { eventMessage } from '../messages/derive.ts';
import type { Message } from '../messages/types.ts';
import { isRuntimeContextEvent, systemText } from '../messages/classify.ts';
import { jsonBytes } from '../util/json-bytes.ts';
import { jsonCommonPrefixBytes } from '../util/json-common-prefix.ts';
import { SeqMap } from '../util/seq-map.ts';
import { Fenwick } from '../util/fenwick.ts';
import { estimateMessage } from '../messages/estimate.ts';
import { SurfaceTotals } from './surface-totals.ts';
import { grownTo } from '../util/typed.ts';
import type { SurfaceContext, SurfacePlan, SurfaceState } from './types.ts';
import { SURFACE_CHANGING_TYPES, type SurfaceVisitor } from './walk.ts';

/**
 * What the load needs to know about the surface, kept as the walk goes so
 * that per-call and per-change questions are answered from what changed,
 * never by walking every node (a session on a 1M-token window
 * holds thousands of messages between compactions).
 *
 * Each node lives in a *slot*. An append takes a new slot at the end; a
 * replace puts its node in the slot of the first node it shadows and kills
 * the slots of the others (dsh-log-rules L4.2: a replace swaps a
 * contiguous run for one node). Slot order is therefore always surface
 * order, and prefix sums over slots (Fenwick trees) give "how many nodes /
 * messages / message bytes come before this node" in O(log n).
 *
 * Since the last `mark()` (the previous model call) the ledger also keeps
 * what each changed slot held, so the call after a replace or a message
 * projection compares the two contexts from the lowest changed position
 * only (P7.2: an append-only series keeps everything
 * before it). Messages themselves are not kept: a comparison derives the
 * few it needs from the log.
 */
const ALIVE = 1;
const MESSAGE = 2;
/** The message's role is `system` (counted for P5.4's "several system messages"). */
const SYSTEM_ROLE = 4;
/** The node is a `system/message` event (P5.1). */
const SYSTEM_EVENT = 8;
/** An owned runtime-context snapshot (P3.4). */
const RUNTIME_CONTEXT = 16;

/** What a slot held at the last mark, recorded on its first change after it. */
interface SlotBefore {
  flags: number;
  seq: number;
  bytes: number;
  /** The message projection in force then (V4, L6.4), if any. */
  projection: Message | undefined;
}

/** A system/message node on the surface, with the P5.1 class of its text. */
export interface LedgerSystemNode {
  seq: number;
  /** '' dormant; a string: one text block; undefined: active but opaque content. */
  text: string | undefined;
}

/** The outcome of comparing the context at the mark with the current one. */
export interface KeptSinceMark {
  /** Leading messages equal in both (P7.2). */
  keptMessages: number;
  /** UTF-8 bytes of the JSON of those messages, commas between them excluded. */
  keptMessageBytes: number;
  /**
   * When both contexts continue past the kept messages: UTF-8 bytes of the
   * common prefix of the first differing pair's JSON (the part of it a
   * provider's prefix cache still matches).
   */
  firstDifference: { commonBytes: number } | null;
}

/** What a streaming load knows of the log's size, for the ledger's seq map to grow by. */
export interface LedgerSizing {
  projectedCount?: (count: number) => number;
}

export class SurfaceLedger implements SurfaceVisitor {
  readonly reads = SURFACE_CHANGING_TYPES;
  /** Messages serialized so far: sized as they enter a slot, compared across a call's changed run (a test pins both to the events read). */
  readonly work = { sized: 0, compared: 0 };
  private slotSeq = new Float64Array(1024);
  private slotFlags = new Uint8Array(1024);
  private slotBytes = new Float64Array(1024);
  /** DSH's token-meter estimate of each slot's message (0 without one). */
  private slotTokens = new Float64Array(1024);
  private tokenTotal = 0;
  /** Messages and tokens after every surface change: kept after the walk (the cursor reads them). */
  readonly totals = new SurfaceTotals();
  private slotEnd = 0;
  private readonly slotOfSeq: SeqMap;
  /** The ledger's own copy of each projected node's message, by slot. */
  private readonly projections = new Map<number, Message>();
  private readonly nodeCounts = new Fenwick();
  private readonly messageCounts = new Fenwick();
  private readonly messageBytes = new Fenwick();
  private systemRoles = 0;
  /** Runtime-context slots in surface order; dead ones are dropped lazily from the end. */
  private contextSlots: number[] = [];
  /** system/message slots on the surface, in surface order (few: one per prompt change). */
  private systemSlots: number[] = [];
  private readonly systemTexts = new Map<number, string | undefined>();

  // Since the last mark:
  private markSlotEnd = 0;
  private lowestChange = Infinity;
  private readonly heldAtMark = new Map<number, SlotBefore>();

  /** `projectedCount`: the log's expected event count from the count read so far (a streaming load's store), to size by. */
  constructor(sizing: LedgerSizing = {}) {
    this.slotOfSeq = new SeqMap(sizing.projectedCount);
  }

  get nodeCount(): number {
    return this.slotOfSeq.size;
  }
  get messageCount(): number {
    return this.messageCounts.total();
  }
  /** UTF-8 bytes of every message's JSON, summed. */
  get totalMessageBytes(): number {
    return this.messageBytes.total();
  }
  /** Messages whose role is `system`, dormant ones (one empty text, P5.1) aside. */
  get systemRoleCount(): number {
    return this.systemRoles;
  }

  isOnSurface(seq: number): boolean {
    return this.slotOfSeq.has(seq);
  }

  /** Surface index of a node (its position in `state.nodes`), or −1 when it is not on the surface. */
  indexOf(seq: number): number {
    const slot = this.slotOfSeq.get(seq);
    return slot === undefined ? -1 : this.nodeCounts.prefix(slot);
  }

  /** The last owned runtime-context snapshot in surface order (P4.4), or null. */
  lastRuntimeContext(): number | null {
    const slots = this.contextSlots;
    while (slots.length && !(this.slotFlags[slots[slots.length - 1]] & ALIVE && this.slotFlags[slots[slots.length - 1]] & RUNTIME_CONTEXT)) slots.pop();
    return slots.length ? this.slotSeq[slots[slots.length - 1]] : null;
  }

  /** system/message nodes on the surface, in surface order. */
  systemNodes(): LedgerSystemNode[] {
    return this.systemSlots.map((slot) => ({ seq: this.slotSeq[slot], text: this.systemTexts.get(slot) }));
  }

  after(event: LogEvent, state: SurfaceState, plan: SurfacePlan): void {
    this.apply(event, state, plan);
    if (plan.kind === 'append' || plan.kind === 'replace' || plan.kind === 'project') this.totals.record(event.seq, this.messageCount, this.tokenTotal);
  }

  private apply(event: LogEvent, state: SurfaceState, plan: SurfacePlan): void {
    switch (plan.kind) {
      case 'append':
        this.put(this.newSlot(), event, state);
        return;
      case 'replace': {
        const first = this.slotOfSeq.get(plan.shadowed[0]);
        for (const seq of plan.shadowed) {
          const slot = this.slotOfSeq.get(seq);
          if (slot !== undefined) this.kill(slot);
        }
        // Shadowed nodes are contiguous, and slot order is surface order: the first one's slot is the run's place.
        this.put(first ?? this.newSlot(), event, state);
        return;
      }
      case 'project':
        for (const [seq, message] of plan.messages) {
          const slot = this.slotOfSeq.get(seq);
          if (slot === undefined) continue;
          this.remember(slot);
          this.setMessage(slot, message);
          this.projections.set(slot, message);
        }
        return;
      case 'none':
      case 'reject':
        return;
    }
  }

  /** Lets go of everything once the walk is over (the analyses that read it keep no question for later). */
  release(): void {
    this.slotSeq = new Float64Array(0);
    this.slotFlags = new Uint8Array(0);
    this.slotBytes = new Float64Array(0);
    this.slotTokens = new Float64Array(0);
    this.totals.trim();
    this.slotOfSeq.clear();
    this.projections.clear();
    this.heldAtMark.clear();
    this.contextSlots = [];
    this.systemSlots = [];
    this.systemTexts.clear();
    for (const f of [this.nodeCounts, this.messageCounts, this.messageBytes]) f.clear();
  }

  /** A model call was cut here: later changes are measured against this surface. */
  mark(): void {
    this.markSlotEnd = this.slotEnd;
    this.lowestChange = Infinity;
    this.heldAtMark.clear();
  }

  /** Whether the surface only grew at the end since the mark. */
  get onlyAppendedSinceMark(): boolean {
    return this.lowestChange === Infinity;
  }

  /** Messages before the first slot changed since the mark: untouched, in both contexts. */
  private messagesBeforeChange(): number {
    return this.lowestChange === Infinity ? this.messageCounts.prefix(this.markSlotEnd) : this.messageCounts.prefix(this.lowestChange);
  }

  /**
   * The context at the mark against the current one: how many leading
   * messages are equal, their bytes, and the first differing pair's JSON.
   * Work is proportional to the messages compared from the lowest changed
   * position (nearly always one pair), not to the surface.
   */
  keptSinceMark(eventAt: SurfaceContext['eventAt'], previousCount: number): KeptSinceMark {
    let kept = this.messagesBeforeChange();
    let firstDifference: KeptSinceMark['firstDifference'] = null;
    if (this.lowestChange !== Infinity) {
      const changed: number[] = [];
      let lastChanged = -1;
      for (const [slot, was] of this.heldAtMark) {
        if (was.flags & MESSAGE) changed.push(slot);
        if (slot > lastChanged) lastChanged = slot;
      }
      changed.sort((a, b) => a - b);
      let p = this.lowestChange;
      let c = this.lowestChange;
      let u = 0;
      for (;;) {
        while (u < changed.length && changed[u] < p) u++;
        const ps = this.previousMessageSlot(p, changed[u]);
        const cs = this.nextMessageSlot(c);
        if (ps < 0 || cs < 0) break;
        if (ps === cs && ps > lastChanged) {
          // Past every change: the rest of the earlier context is still here, message for message.
          kept += this.messageCounts.prefix(this.markSlotEnd) - this.messageCounts.prefix(ps);
          break;
        }
        if (ps === cs && !this.heldAtMark.has(ps)) {
          // The same untouched node on both sides.
          kept++;
          p = c = ps + 1;
          continue;
        }
        const commonBytes = jsonCommonPrefixBytes(this.messageAt(ps, this.heldAtMark.get(ps), eventAt), this.messageAt(cs, undefined, eventAt));
        if (commonBytes !== null) {
          firstDifference = { commonBytes };
          break;
        }
        kept++;
        p = ps + 1;
        c = cs + 1;
      }
    }
    kept = Math.min(kept, previousCount);
    const keptSlot = kept < this.messageCount ? this.messageCounts.findKth(kept + 1) : this.slotEnd;
    return { keptMessages: kept, keptMessageBytes: this.messageBytes.prefix(keptSlot), firstDifference };
  }

  /** The first slot at or after `from` that held a message at the mark (`changed`: the next changed slot that did). */
  private previousMessageSlot(from: number, changed: number | undefined): number {
    let s = this.nextMessageSlot(from);
    // A slot that changed since the mark is read from its record, not from what it holds now.
    while (s >= 0 && this.heldAtMark.has(s)) s = this.nextMessageSlot(s + 1);
    if (s >= this.markSlotEnd) s = -1;
    if (changed !== undefined && (s < 0 || changed < s)) return changed;
    return s;
  }

  /** The first slot at or after `from` that holds a message now, or −1. */
  private nextMessageSlot(from: number): number {
    const k = this.messageCounts.prefix(from) + 1;
    return k <= this.messageCount ? this.messageCounts.findKth(k) : -1;
  }

  private messageAt(slot: number, before: SlotBefore | undefined, eventAt: SurfaceContext['eventAt']): Message | null {
    this.work.compared++;
    const seq = before ? before.seq : this.slotSeq[slot];
    const projection = before ? before.projection : this.projections.get(slot);
    return projection ?? messageOf(eventAt(seq));
  }

  private newSlot(): number {
    if (this.slotEnd === this.slotSeq.length) {
      const size = this.slotEnd * 2;
      this.slotSeq = grownTo(this.slotSeq, size);
      this.slotFlags = grownTo(this.slotFlags, size);
      this.slotBytes = grownTo(this.slotBytes, size);
      this.slotTokens = grownTo(this.slotTokens, size);
    }
    this.nodeCounts.push(0);
    this.messageCounts.push(0);
    this.messageBytes.push(0);
    return this.slotEnd++;
  }

  /** Records what a slot held at the mark, on its first change after it. */
  private remember(slot: number): void {
    // A slot made after the mark was not part of the earlier context: its changes do not count.
    if (slot >= this.markSlotEnd || this.heldAtMark.has(slot)) return;
    this.lowestChange = Math.min(this.lowestChange, slot);
    this.heldAtMark.set(slot, { flags: this.slotFlags[slot], seq: this.slotSeq[slot], bytes: this.slotBytes[slot], projection: this.projections.get(slot) });
  }

  private kill(slot: number): void {
    this.remember(slot);
    this.setMessage(slot, null);
    this.nodeCounts.add(slot, -1);
    this.slotOfSeq.delete(this.slotSeq[slot]);
    this.projections.delete(slot);
    if (this.slotFlags[slot] & SYSTEM_EVENT) {
      this.systemSlots = this.systemSlots.filter((s) => s !== slot);
      this.systemTexts.delete(slot);
    }
    this.slotFlags[slot] = 0;
  }

  /** A node enters `slot` (new, or the place of the run it replaced). */
  private put(slot: number, event: LogEvent, state: SurfaceState): void {
    if (slot < this.markSlotEnd) this.remember(slot);
    this.slotSeq[slot] = event.seq;
    this.slotFlags[slot] = ALIVE;
    this.nodeCounts.add(slot, 1);
    this.slotOfSeq.set(event.seq, slot);
    const message = eventMessage(event, state.projected);
    if (!message) this.totals.silent.add(event.seq);
    this.setMessage(slot, message);
    if (isRuntimeContextEvent(event)) {
      this.slotFlags[slot] |= RUNTIME_CONTEXT;
      insertSorted(this.contextSlots, slot);
    }
    if (event.type === 'system/message') {
      this.slotFlags[slot] |= SYSTEM_EVENT;
      insertSorted(this.systemSlots, slot);
      // The stored message's class, even when its content is empty (a dormant prompt, P5.1).
      this.systemTexts.set(slot, systemText(event.data?.message?.content));
    }
  }

  /** Sets (or clears) the message a slot contributes, keeping the sums in step. */
  private setMessage(slot: number, message: Message | null): void {
    const flags = this.slotFlags[slot];
    if (flags & MESSAGE) {
      this.messageCounts.add(slot, -1);
      this.messageBytes.add(slot, -this.slotBytes[slot]);
      if (flags & SYSTEM_ROLE) this.systemRoles--;
    }
    this.tokenTotal -= this.slotTokens[slot];
    let next = flags & ~(MESSAGE | SYSTEM_ROLE);
    let bytes = 0;
    let tokens = 0;
    if (message) {
      this.work.sized++;
      bytes = jsonBytes(message);
      tokens = safeEstimate(message);
      next |= MESSAGE;
      this.messageCounts.add(slot, 1);
      this.messageBytes.add(slot, bytes);
      // A system message whose one text is empty is dormant (P5.1): it sends nothing.
      if (message.role === 'system' && systemText(message.content) !== '') {
        next |= SYSTEM_ROLE;
        this.systemRoles++;
      }
    }
    this.slotFlags[slot] = next;
    this.slotBytes[slot] = bytes;
    this.slotTokens[slot] = tokens;
    this.tokenTotal += tokens;
  }
}

/** The token meter's estimate, 0 for a message whose blocks it cannot price (the fold reports those). */
function safeEstimate(message: Message): number {
  try { return estimateMessage(message); } catch { return 0; }
}

function messageOf(event: LogEvent | undefined): Message | null {
  return event ? eventMessage(event) : null;
}

/** Inserts into an ascending list (appends, the common case, cost nothing). */
function insertSorted(list: number[], value: number): void {
  let i = list.length;
  while (i > 0 && list[i - 1] > value) i--;
  list.splice(i, 0, value);
}
