// Section ids (P…) are those of docs/dsh-log-rules.md.
import type { LogEvent } from '../log/types.ts';
import { jsonText } from '../util/json-text.ts';

/**
 * The request header (P6.1): canonical form, equality,
 * and the fold over a log prefix.
 */

/** `LlmCallConfig`: route and sampling fields the loop sends. */
export interface LlmCallConfig {
  provider: string;
  model: string;
  reasoningEffort?: unknown;
  temperature?: number;
  maxTokens?: number;
  stop?: string[];
  [key: string]: unknown;
}

/**
 * A request header as logged. `system`/`tools` are normally a string and an
 * array, but scrubbed fixtures hold the tokens `{{system}}`/`{{tools}}`.
 */
export interface RequestHeader {
  config: LlmCallConfig;
  adapterDefaults?: { reasoningEffort?: boolean; maxTokens?: boolean };
  system?: string;
  tools?: unknown;
}

/** JavaScript's `x !== undefined && x.length > 0` on a parsed JSON value. */
function nonEmpty(x: unknown): boolean {
  if (x === undefined || x === null) return false;
  const length = (x as { length?: unknown }).length;
  return typeof length === 'number' && length > 0;
}

/** `{config}` plus adapterDefaults (only with a true flag), non-empty system, non-empty tools. */
export function canonicalHeader(header: RequestHeader): RequestHeader {
  // A malformed header (the reader's payload finding) folds as an empty config, never a crash.
  if (typeof header !== 'object' || header === null) return { config: {} as LlmCallConfig };
  const out: RequestHeader = { config: header.config ?? ({} as LlmCallConfig) };
  const d = header.adapterDefaults;
  if (d?.reasoningEffort === true || d?.maxTokens === true) out.adapterDefaults = d;
  if (nonEmpty(header.system)) out.system = header.system;
  if (nonEmpty(header.tools)) out.tools = header.tools;
  return out;
}

/** Strict equality of the compared config fields; `stop` element-wise (P6.1). */
export function callConfigEquals(a: LlmCallConfig, b: LlmCallConfig): boolean {
  if (!a || !b) return a === b;
  if (a.provider !== b.provider || a.model !== b.model || a.reasoningEffort !== b.reasoningEffort
    || a.temperature !== b.temperature || a.maxTokens !== b.maxTokens) return false;
  if (a.stop === undefined || b.stop === undefined) return a.stop === b.stop;
  return a.stop.length === b.stop.length && a.stop.every((s, i) => s === b.stop![i]);
}

function toolList(tools: unknown): unknown[] {
  return Array.isArray(tools) ? tools : tools === undefined ? [] : [tools];
}

/** DSH's headerEquals over canonical headers: tools compare by JSON text, in order. */
export function headerEquals(a: RequestHeader, b: RequestHeader): boolean {
  if (!callConfigEquals(a.config, b.config)) return false;
  if (a.adapterDefaults?.reasoningEffort !== b.adapterDefaults?.reasoningEffort) return false;
  if (a.adapterDefaults?.maxTokens !== b.adapterDefaults?.maxTokens) return false;
  if (a.system !== b.system) return false;
  const at = toolList(a.tools);
  const bt = toolList(b.tools);
  return at.length === bt.length && at.every((t, i) => JSON.stringify(t) === JSON.stringify(bt[i]));
}

/**
 * Whether two canonical headers are the same JSON, field for field and in
 * order (stricter than headerEquals, which compares only DSH's fields): the
 * request analysis then keeps one header object for both.
 */
export function identicalHeaders(a: RequestHeader, b: RequestHeader): boolean {
  return a.system === b.system && JSON.stringify(a.config) === JSON.stringify(b.config)
    && JSON.stringify(a.adapterDefaults) === JSON.stringify(b.adapterDefaults)
    && (a.tools === undefined) === (b.tools === undefined) && jsonText(a.tools) === jsonText(b.tools);
}

/** The canonical form of the latest request/header in `events`, or undefined. */
export function foldRequestHeader(events: Iterable<LogEvent>): RequestHeader | undefined {
  let state: RequestHeader | undefined;
  for (const e of events) if (e.type === 'request/header') state = canonicalHeader(e.data?.header);
  return state;
}

/** Header fields DSH committed fixtures scrub to tokens (P3.2 fixture caveat). */
export function isScrubbed(value: unknown): boolean {
  return typeof value === 'string' && /^\{\{[A-Za-z]+\}\}$/.test(value);
}

/** The tool names in a header's tools, or null when tools are scrubbed/opaque. */
export function toolNames(tools: unknown): string[] | null {
  if (tools === undefined) return [];
  if (!Array.isArray(tools)) return null;
  // Scrubbed fixtures may list bare names instead of schemas.
  return tools.map((t) => (typeof t === 'string' ? t : t && typeof t === 'object' && typeof (t as { name?: unknown }).name === 'string' ? (t as { name: string }).name : '?'));
}
