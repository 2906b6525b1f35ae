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
  /** Serialized form (serializeForPrefix). */
  serialized: string;
}

/** Changes logged between the previous cut and this one, gathered by the builder. */
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
 * previous one.
 */
export function serializeForPrefix(system: unknown, tools: unknown, messages: readonly Message[]): string {
  const head = `{"system":${JSON.stringify(system ?? null)},"tools":${JSON.stringify(tools ?? null)},"messages":[`;
  return head + messages.map((m) => JSON.stringify(m)).join(',');
}

function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // Do not split a surrogate pair.
  if (i > 0 && i < n && a.charCodeAt(i - 1) >= 0xd800 && a.charCodeAt(i - 1) <= 0xdbff) i--;
  return i;
}

function keptMessageCount(prev: readonly Message[], cur: readonly Message[]): number {
  const n = Math.min(prev.length, cur.length);
  let i = 0;
  while (i < n && (prev[i] === cur[i] || JSON.stringify(prev[i]) === JSON.stringify(cur[i]))) i++;
  return i;
}

export function analyzePrefix(prevIndex: number | null, prev: PrefixInput | null, cur: PrefixInput, changes: ChangesSince): PrefixAnalysis {
  const bytes = utf8Bytes(cur.serialized);
  if (!prev || prevIndex === null) {
    return { previous: null, firstCall: true, keptMessages: 0, previousMessageCount: 0, keptBytes: 0, previousBytes: 0, bytes, extendsPrevious: false, reasons: [] };
  }
  const keptMessages = keptMessageCount(prev.messages, cur.messages);
  const keptChars = commonPrefixLength(prev.serialized, cur.serialized);
  const systemSame = JSON.stringify(prev.system) === JSON.stringify(cur.system);
  const toolsSame = JSON.stringify(prev.tools) === JSON.stringify(cur.tools);
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
    keptBytes: utf8Bytes(cur.serialized, keptChars),
    previousBytes: utf8Bytes(prev.serialized),
    bytes,
    extendsPrevious: messagesKept && systemSame && toolsSame && configSame,
    reasons,
  };
}
