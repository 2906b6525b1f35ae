import type { ContentBlock, Message } from '../../core/messages/types.ts';
import { isPlainObject } from '../../core/util/json.ts';

/** The call a tool result answers, as far as the page knows it. */
export interface CallInfo {
  name: string;
  arguments: unknown;
  /** The `tool/call` event, when known (a link). */
  seq?: number;
}

/** Tool calls by id in the assistant messages of a list (a tool result shows its call when it is on the same page). */
export function callsIn(messages: readonly Message[]): Map<string, CallInfo> {
  const out = new Map<string, CallInfo>();
  for (const m of messages) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (b?.type === 'tool-call' && typeof b.id === 'string') out.set(b.id, { name: String(b.name ?? ''), arguments: b.arguments });
    }
  }
  return out;
}

/**
 * Tool-call arguments as readable text: a JSON string is indented; anything
 * else is shown as it was logged. The text is shown as text, never evaluated.
 */
export function prettyArguments(args: unknown): string {
  if (typeof args === 'string') {
    try {
      const parsed: unknown = JSON.parse(args);
      return typeof parsed === 'object' && parsed !== null ? JSON.stringify(parsed, null, 2) : args;
    } catch {
      return args;
    }
  }
  return args === undefined ? '' : JSON.stringify(args, null, 2) ?? String(args);
}

/** The text of a text-like block: a string as is; anything else as JSON (a malformed block still reads). */
export function blockText(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value, null, 2) ?? String(value);
}

/** Long text is shown folded: this many characters, or this many lines, whichever comes first. */
export const FOLD_CHARS = 2000;
export const FOLD_LINES = 40;

/** The head of a text shown before "show all", or null when the text is short enough to show whole. */
export function foldedHead(text: string, chars = FOLD_CHARS, lines = FOLD_LINES): string | null {
  let end = Math.min(text.length, chars);
  let seen = 0;
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10 && ++seen >= lines) { end = i; break; }
  }
  return end < text.length ? text.slice(0, end) : null;
}

/** An image block as one line: media type, size in pixels and bytes, attachment id, offloaded. */
export function imageLabel(block: ContentBlock): string {
  const a = isPlainObject(block.attachment) ? block.attachment : {};
  const parts: string[] = ['image'];
  if (typeof a.mediaType === 'string') parts.push(a.mediaType);
  if (typeof a.width === 'number' && typeof a.height === 'number') parts.push(`${a.width}×${a.height}`);
  if (typeof a.bytes === 'number') parts.push(formatBytes(a.bytes));
  if (typeof a.name === 'string') parts.push(a.name);
  if (typeof a.attachmentId === 'string') parts.push(a.attachmentId.length > 20 ? `${a.attachmentId.slice(0, 19)}…` : a.attachmentId);
  if (block.offloaded === true) parts.push('offloaded (the model is sent a placeholder)');
  return parts.join(' · ');
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
