import type { Message } from '../messages/types.ts';
import { callConfigEquals, type LlmCallConfig } from './header.ts';
import { utf8Bytes } from './hash.ts';

/**
 * Request-to-request prefix analysis (issue 5; prompt-and-requests.md §6.2,
 * §7.2, §8.3 "each request within a turn strictly extends the previous one").
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

/** What the analysis compares for one request. */
export interface PrefixInput {
  config: LlmCallConfig | null;
  system: unknown;
  tools: unknown;
  messages: readonly Message[];
  /** The serialized head (serializeHead): system and tools, before the messages. */
  head: string;
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
 * previous one. serializeForPrefix is that string; the analysis below works
 * per message on cached serializations, so a log with thousands of calls
 * does not re-serialize its whole context for every call.
 */
export function serializeHead(system: unknown, tools: unknown): string {
  return `{"system":${JSON.stringify(system ?? null)},"tools":${JSON.stringify(tools ?? null)},"messages":[`;
}

export function serializeForPrefix(system: unknown, tools: unknown, messages: readonly Message[]): string {
  return serializeHead(system, tools) + messages.map((m) => JSON.stringify(m)).join(',');
}

function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // Do not split a surrogate pair.
  if (i > 0 && i < n && a.charCodeAt(i - 1) >= 0xd800 && a.charCodeAt(i - 1) <= 0xdbff) i--;
  return i;
}

/**
 * The prefix analysis of one session's calls, in order. Messages are frozen
 * and identity-stable per (seq, generation), so each one's JSON is computed
 * once; the cache lives as long as the analysis (the load), not the app.
 */
export class PrefixAnalyzer {
  // Weak: a message that left the surface (compaction) takes its JSON with it.
  private readonly json = new WeakMap<object, { json: string; bytes: number }>();
  private readonly inputBytes = new WeakMap<PrefixInput, number>();
  /** The head (system + tools JSON) repeats call after call: its byte count is kept for the last few. */
  private readonly headSizes = new Map<string, number>();

  private serialized(m: Message): { json: string; bytes: number } {
    let hit = this.json.get(m);
    if (!hit) {
      const json = JSON.stringify(m);
      hit = { json, bytes: utf8Bytes(json) };
      this.json.set(m, hit);
    }
    return hit;
  }

  private headBytes(head: string): number {
    let n = this.headSizes.get(head);
    if (n === undefined) {
      n = utf8Bytes(head);
      if (this.headSizes.size > 64) this.headSizes.clear();
      this.headSizes.set(head, n);
    }
    return n;
  }

  private keptMessageCount(prev: readonly Message[], cur: readonly Message[]): number {
    const n = Math.min(prev.length, cur.length);
    let i = 0;
    while (i < n && (prev[i] === cur[i] || this.serialized(prev[i]).json === this.serialized(cur[i]).json)) i++;
    return i;
  }

  /** UTF-8 bytes of serializeForPrefix(...) without building it (once per input: the next call reuses it). */
  private serializedBytes(input: PrefixInput): number {
    let n = this.inputBytes.get(input);
    if (n === undefined) {
      n = this.headBytes(input.head) + Math.max(0, input.messages.length - 1);
      for (const m of input.messages) n += this.serialized(m).bytes;
      this.inputBytes.set(input, n);
    }
    return n;
  }

  /** UTF-8 bytes of the common prefix of two serialized requests, message by message. */
  private keptPrefixBytes(prev: PrefixInput, cur: PrefixInput, keptMessages: number): number {
    if (prev.head !== cur.head) return utf8Bytes(cur.head, commonPrefixLength(prev.head, cur.head));
    let n = this.headBytes(cur.head);
    for (let i = 0; i < keptMessages; i++) n += this.serialized(cur.messages[i]).bytes + (i > 0 ? 1 : 0);
    const a = prev.messages[keptMessages];
    const b = cur.messages[keptMessages];
    if (a === undefined || b === undefined) return n;
    // Both continue: the separating comma is shared, then part of the first differing message.
    if (keptMessages > 0) n += 1;
    const ja = this.serialized(a).json;
    const jb = this.serialized(b).json;
    return n + utf8Bytes(jb, commonPrefixLength(ja, jb));
  }

  /** What call `cur` keeps of the call before it, and why it breaks the prefix if it does. */
  analyze(prevIndex: number | null, prev: PrefixInput | null, cur: PrefixInput, changes: ChangesSince): PrefixAnalysis {
    const bytes = this.serializedBytes(cur);
    if (!prev || prevIndex === null) {
      return { previous: null, firstCall: true, keptMessages: 0, previousMessageCount: 0, keptBytes: 0, previousBytes: 0, bytes, extendsPrevious: false, reasons: [] };
    }
    const keptMessages = this.keptMessageCount(prev.messages, cur.messages);
    // Calls under one header share its system text and tools object: compare those before serializing.
    const systemSame = prev.system === cur.system || JSON.stringify(prev.system) === JSON.stringify(cur.system);
    const toolsSame = prev.tools === cur.tools || JSON.stringify(prev.tools) === JSON.stringify(cur.tools);
    const configSame = prev.config !== null && cur.config !== null ? callConfigEquals(prev.config, cur.config) : prev.config === cur.config;
    const messagesKept = keptMessages === prev.messages.length;
    const reasons: BreakReason[] = [];
    if (!messagesKept) {
      if (changes.compactionReplace) reasons.push('compaction');
      if (changes.otherReplace) reasons.push('replace');
      if (changes.projection) reasons.push('projection');
      if (changes.systemMessage && !reasons.includes('replace')) reasons.push('system-change');
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
      previousMessageCount: prev.messages.length,
      keptBytes: this.keptPrefixBytes(prev, cur, keptMessages),
      previousBytes: this.serializedBytes(prev),
      bytes,
      extendsPrevious: messagesKept && systemSame && toolsSame && configSame,
      reasons,
    };
  }
}
