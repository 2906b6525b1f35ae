import type { Message } from '../messages/types.ts';
import type { KeptSinceMark } from '../surface/ledger.ts';
import { callConfigEquals, type LlmCallConfig } from '../prompt/request-header.ts';
import { utf8Bytes } from './hash.ts';
import { jsonText } from '../util/json-text.ts';
import { commonPrefixLength } from '../util/json-common-prefix.ts';

/**
 * Request-to-request prefix analysis (dsh-log-rules P6.2,
 * P7.2, P8.3 "each request within a turn strictly extends the previous one").
 * Prompt caches key on the serialized prefix: what the previous call sent
 * and this one kept, and why the rest broke.
 */
export type BreakReason =
  /** A compaction replace rewrote history (compaction/* events, a checkpoint source). */
  | 'compaction'
  /** Another surface replace (tool-result prune, system tombstone, …). */
  | 'replace'
  /** A message projection (image offload) rewrote an earlier message. */
  | 'projection'
  /** The system prompt text changed (rc.8 header, or system/message). */
  | 'system-change'
  /** The tools changed (names or schemas). */
  | 'tool-change'
  /** The model route or sampling config changed: a cache belongs to one model. */
  | 'config-change'
  /** A `series` header or `startsSeries: true` (newest). */
  | 'new-series'
  /** Earlier messages differ for no logged reason (should not happen). */
  | 'unexplained';

export interface PrefixAnalysis {
  /** Index of the previous request, null for the first call. */
  previous: number | null;
  firstCall: boolean;
  /** Leading messages equal to the previous request's. */
  keptMessages: number;
  previousMessageCount: number;
  /** Common prefix of the serialized requests, in UTF-8 bytes. */
  keptBytes: number;
  previousBytes: number;
  bytes: number;
  /** The previous request is a strict prefix of this one (messages, system, tools, config). */
  extendsPrevious: boolean;
  /** Why the prefix broke, most specific first; [] when it extends. */
  reasons: BreakReason[];
  /** Provider-reported cached input tokens for this call, when logged. */
  cacheReadTokens?: number;
  inputTokens?: number;
}

/** What the analysis compares for one request: the head in full, the messages as totals. */
export interface PrefixInput {
  config: LlmCallConfig | null;
  system: unknown;
  /** The head's system + tools (serializeHead), computed once per header. */
  head: RequestHead;
  messageCount: number;
  /** UTF-8 bytes of every message's JSON, summed (the surface ledger keeps the sum). */
  messageBytes: number;
}

/** A header's serialized head, its byte length and its tools' JSON: once per header, shared by its calls. */
export interface RequestHead {
  text: string;
  bytes: number;
  toolsJson: string;
  /** What it was made from: a header whose system and tools are these very values has this head. */
  system: unknown;
  tools: unknown;
}

/** How many recent heads a HeadCache keeps: a session alternates among a few (an agent's, a subagent's, the title model's). */
const RECENT_HEADS = 8;

/**
 * The heads of the last few distinct headers. The analysis pools a header's
 * system and tools, so a header that only changed its config, or went back
 * to an earlier model's tools, hands over values seen before and is not
 * serialized again; a head equal as text to a recent one is that one.
 */
export class HeadCache {
  private readonly recent: RequestHead[] = [];

  of(system: unknown, tools: unknown): RequestHead {
    const recent = this.recent;
    let head = recent.find((h) => h.system === system && h.tools === tools);
    if (!head) {
      const text = serializeHead(system, tools);
      head = recent.find((h) => h.text === text) ?? { text, bytes: utf8Bytes(text), toolsJson: jsonText(tools), system, tools };
    }
    if (recent[0] !== head) {
      const at = recent.indexOf(head);
      if (at >= 0) recent.splice(at, 1);
      recent.unshift(head);
      if (recent.length > RECENT_HEADS) recent.pop();
    }
    return head;
  }
}

export interface ChangesSince {
  compactionReplace: boolean;
  otherReplace: boolean;
  projection: boolean;
  series: boolean;
  systemMessage: boolean;
}

/**
 * The byte order a provider sees: system, tools, then the messages — left
 * open at the end, so a request that only appends keeps every byte of the
 * previous one. serializeForPrefix is that string (the tests' oracle); the
 * analysis works from byte totals and the messages that changed, so a log
 * with thousands of calls never re-serializes its whole context.
 */
export function serializeHead(system: unknown, tools: unknown): string {
  return `{"system":${JSON.stringify(system ?? null)},"tools":${jsonText(tools)},"messages":[`;
}

export function serializeForPrefix(system: unknown, tools: unknown, messages: readonly Message[]): string {
  return serializeHead(system, tools) + messages.map((m) => JSON.stringify(m)).join(',');
}

const NO_REASONS: BreakReason[] = Object.freeze([]) as unknown as BreakReason[];

/** UTF-8 bytes of serializeForPrefix(...) for an input, from its totals. */
export function serializedBytes(input: PrefixInput): number {
  return input.head.bytes + input.messageBytes + Math.max(0, input.messageCount - 1);
}

/**
 * What call `cur` keeps of the call before it, and why it breaks the prefix
 * if it does. `kept` is the message comparison the surface ledger made from
 * the lowest position changed since the previous call (an append-only
 * series keeps every earlier message), so a call costs what changed, not
 * the size of its context.
 */
export function analyzePrefix(prevIndex: number | null, prev: PrefixInput | null, cur: PrefixInput, changes: ChangesSince, kept: KeptSinceMark): PrefixAnalysis {
  const bytes = serializedBytes(cur);
  if (!prev || prevIndex === null) {
    return { previous: null, firstCall: true, keptMessages: 0, previousMessageCount: 0, keptBytes: 0, previousBytes: 0, bytes, extendsPrevious: false, reasons: NO_REASONS };
  }
  const { keptMessages } = kept;
  // Strings compare by value; calls under one header share its system text and tools JSON.
  // (A string, null or undefined is equal by value or not at all: only a structured prompt is compared as JSON.)
  const systemSame = prev.system === cur.system || (isStructured(prev.system) && isStructured(cur.system) && JSON.stringify(prev.system) === JSON.stringify(cur.system));
  const toolsSame = prev.head.toolsJson === cur.head.toolsJson;
  const configSame = prev.config !== null && cur.config !== null ? callConfigEquals(prev.config, cur.config) : prev.config === cur.config;
  const messagesKept = keptMessages === prev.messageCount;
  const reasons: BreakReason[] = [];
  if (!messagesKept) {
    if (changes.compactionReplace) reasons.push('compaction');
    if (changes.otherReplace) reasons.push('replace');
    if (changes.projection) reasons.push('projection');
    // Every kind of change that rewrote what the previous call sent (a prune and a new system prompt may come together).
    if (changes.systemMessage) reasons.push('system-change');
  }
  if (!systemSame && !reasons.includes('system-change')) reasons.push('system-change');
  if (!toolsSame) reasons.push('tool-change');
  if (!configSame) reasons.push('config-change');
  if (changes.series) reasons.push('new-series');
  if (!messagesKept && reasons.length === 0) reasons.push('unexplained');
  return {
    previous: prevIndex,
    firstCall: false,
    keptMessages,
    previousMessageCount: prev.messageCount,
    keptBytes: keptPrefixBytes(prev, cur, kept),
    previousBytes: serializedBytes(prev),
    bytes,
    extendsPrevious: messagesKept && systemSame && toolsSame && configSame,
    // Most calls extend the previous one: they share one empty list.
    reasons: reasons.length ? reasons : NO_REASONS,
  };
}

/** UTF-8 bytes of the common prefix of two serialized requests, from the kept messages' bytes. */
function keptPrefixBytes(prev: PrefixInput, cur: PrefixInput, kept: KeptSinceMark): number {
  if (prev.head.text !== cur.head.text) return utf8Bytes(cur.head.text, commonPrefixLength(prev.head.text, cur.head.text));
  const n = kept.keptMessages;
  let bytes = cur.head.bytes + kept.keptMessageBytes + Math.max(0, n - 1);
  const diff = kept.firstDifference;
  if (!diff) return bytes;
  // Both continue: the separating comma is shared, then part of the first differing message.
  if (n > 0) bytes += 1;
  return bytes + diff.commonBytes;
}

const isStructured = (v: unknown): v is object => typeof v === 'object' && v !== null;
