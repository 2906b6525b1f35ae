import { diffArrays } from 'diff';
import { messageBodyToMarkdown } from '../export/markdown.ts';
import type { Message } from '../messages/types.ts';
import { boundedLineDiff, type DiffLimits, type LinePart } from '../prompt/context-diff.ts';
import type { ModelRequest } from '../requests/build.ts';
import { toolNames } from '../prompt/request-header.ts';
import { jsonText } from '../util/json-text.ts';
import { configOf, DIFF_KINDS, type DiffKind } from './request-parts.ts';
import { MessageIdentity } from './trail.ts';

/**
 * What differs between two aligned calls, explained part by part
 * (docs/compare.md): the config fields, the system prompt as a section diff, the tools
 * added, removed or changed, and the first differing message with a text
 * diff. Only the explained pair derives its messages (one replay seek per
 * side), so this runs for the divergence the user looks at, not for every call.
 */
export interface ConfigChange {
  key: string;
  /** undefined: the field is absent on that side. */
  a: unknown;
  b: unknown;
}

export interface SystemChange {
  a: string | null;
  b: string | null;
  /** Sections as rendered (joined by a blank line, dsh-log-rules P2.1), diffed as units; null when a limit stopped it. */
  sections: LinePart[] | null;
  /** Line diff of the whole text; null when a limit stopped it. */
  lines: LinePart[] | null;
}

export interface ToolsChange {
  added: string[];
  removed: string[];
  /** Same name on both sides, different schema. */
  changed: string[];
  /** A side whose tools a fixture scrubbed to a token: names cannot be compared. */
  scrubbed: boolean;
}

export interface MessageSide {
  role: string;
  id: string | null;
  text: string;
  /** The message itself, for a view that shows it as a message (blocks, tool calls, results). */
  message: Message;
}

export interface MessagesChange {
  /** 0-based index of the first differing message: also how many leading messages are equal. */
  index: number;
  countA: number;
  countB: number;
  /** The message at `index` on each side (null: that side's list ends before it). */
  a: MessageSide | null;
  b: MessageSide | null;
  /** Text diff of the two messages (Markdown of their blocks, or their JSON when only metadata differs); null when a limit stopped it. */
  lines: LinePart[] | null;
  /** The texts are equal: the messages differ in fields the text does not show (source, tool call id, …). */
  metadataOnly: boolean;
}

export interface PairExplanation {
  kinds: DiffKind[];
  config: ConfigChange[];
  system: SystemChange | null;
  tools: ToolsChange | null;
  messages: MessagesChange | null;
}

/** Differing config fields, provider and model first. */
export function configChanges(a: ModelRequest, b: ModelRequest): ConfigChange[] {
  const ca = configOf(a.header) ?? {};
  const cb = configOf(b.header) ?? {};
  const keys = [...new Set(['provider', 'model', ...Object.keys(ca), ...Object.keys(cb)])];
  const out: ConfigChange[] = [];
  for (const key of keys) {
    if (JSON.stringify(ca[key]) !== JSON.stringify(cb[key])) out.push({ key, a: ca[key], b: cb[key] });
  }
  if (!a.header !== !b.header) out.unshift({ key: 'request/header', a: a.header ? 'logged' : undefined, b: b.header ? 'logged' : undefined });
  return out;
}

const SECTION_BREAK = '\n\n';

/** A prompt's sections diffed as whole units (the renderer joins sections with a blank line). */
export function sectionDiff(a: string, b: string, limits: DiffLimits = {}): LinePart[] | null {
  const result = diffArrays(a.split(SECTION_BREAK), b.split(SECTION_BREAK), { maxEditLength: limits.maxEditLength ?? 2000, timeout: limits.timeoutMs ?? 200 });
  if (!result) return null;
  return result.flatMap((c) => c.value.map((text) => ({ kind: c.added ? 'added' as const : c.removed ? 'removed' as const : 'same' as const, text })));
}

function systemChange(a: ModelRequest, b: ModelRequest, limits: DiffLimits): SystemChange {
  const ta = typeof a.system.text === 'string' ? a.system.text : null;
  const tb = typeof b.system.text === 'string' ? b.system.text : null;
  const both = ta !== null && tb !== null;
  return { a: ta, b: tb, sections: both ? sectionDiff(ta, tb, limits) : null, lines: both ? boundedLineDiff(ta, tb, limits) : null };
}

function toolsByName(tools: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (Array.isArray(tools)) for (const t of tools) {
    const name = typeof t === 'string' ? t : typeof (t as { name?: unknown })?.name === 'string' ? (t as { name: string }).name : '?';
    out.set(name, JSON.stringify(t));
  }
  return out;
}

export function toolsChange(a: ModelRequest, b: ModelRequest): ToolsChange {
  const scrubbed = toolNames(a.header?.tools) === null || toolNames(b.header?.tools) === null;
  const ta = toolsByName(a.header?.tools);
  const tb = toolsByName(b.header?.tools);
  return {
    added: [...tb.keys()].filter((n) => !ta.has(n)),
    removed: [...ta.keys()].filter((n) => !tb.has(n)),
    changed: [...ta.keys()].filter((n) => tb.has(n) && ta.get(n) !== tb.get(n)),
    scrubbed,
  };
}

function sideOf(message: Message | undefined): MessageSide | null {
  if (!message) return null;
  return { role: String(message.role), id: typeof message.id === 'string' ? message.id : null, text: messageBodyToMarkdown(message), message };
}

/**
 * The first differing message of two calls' lists. Ids compare up to
 * renaming (one bijection per list, as the comparison does per run).
 */
export function messagesChange(ma: readonly Message[], mb: readonly Message[], limits: DiffLimits = {}): MessagesChange {
  const ia = new MessageIdentity();
  const ib = new MessageIdentity();
  const n = Math.min(ma.length, mb.length);
  let index = 0;
  while (index < n && ia.hash(ma[index]) === ib.hash(mb[index])) index++;
  const a = sideOf(ma[index]);
  const b = sideOf(mb[index]);
  let lines: LinePart[] | null = null;
  let metadataOnly = false;
  if (a && b) {
    metadataOnly = a.text === b.text;
    // Equal text: show the fields that differ, as JSON with ids renamed the way they were compared.
    lines = metadataOnly
      ? boundedLineDiff(JSON.stringify(ia.normalized(ma[index]), null, 2), JSON.stringify(ib.normalized(mb[index]), null, 2), limits)
      : boundedLineDiff(a.text, b.text, limits);
  }
  return { index, countA: ma.length, countB: mb.length, a, b, lines, metadataOnly };
}

/** The explanation of one aligned pair; `kinds` as the comparison found them (messages are derived only if they differ). */
export function explainPair(a: ModelRequest, b: ModelRequest, kinds: readonly DiffKind[], limits: DiffLimits = {}): PairExplanation {
  const ordered = DIFF_KINDS.filter((k) => kinds.includes(k));
  return {
    kinds: ordered,
    config: ordered.includes('config') ? configChanges(a, b) : [],
    system: ordered.includes('system') ? systemChange(a, b, limits) : null,
    tools: ordered.includes('tools') ? toolsChange(a, b) : null,
    messages: ordered.includes('messages') ? messagesChange(a.messages, b.messages, limits) : null,
  };
}

/** JSON text of a value for a config cell (short values stay on one line). */
export function valueText(value: unknown): string {
  return value === undefined ? '(absent)' : jsonText(value);
}
