import { isPluginRecord, isPluginRecordType } from '../log/event-types.ts';
import type { LogEvent } from '../log/types.ts';
import { sourceTag } from '../messages/source-kinds.ts';
import { isPlainObject } from '../util/json.ts';

/**
 * A one-line, plain-text preview of an event for lists. Untrusted text: it
 * is cut and flattened here, and rendered as text by the UI.
 */
const MAX = 160;

/**
 * What a preview of an event of some type may print besides the event's own
 * strings, keys, numbers and literals: its fixed labels, characters it joins
 * two of the event's pieces with beyond whitespace and JSON's punctuation,
 * whether it leads with a source tag (source-kinds.ts), and whether it prints
 * a number it counts. The whole-log search rules lines out by their raw text
 * and relies on this being complete (search/line-prefilter.ts): a label
 * `eventPreview` prints for a type must be in that type's entry below.
 */
export interface PreviewVocabulary {
  labels: readonly string[];
  joins: string;
  sourceTagged: boolean;
  /** It prints a number it counts (not one the event holds). */
  counts: boolean;
}

/** What String() prints for a value that is not text (a missing field, an object), and JSON.stringify of a missing one. */
const STRINGIFIED = ['undefined', '[object Object]'];
const vocabulary = (labels: readonly string[], joins = '', sourceTagged = false, counts = false): PreviewVocabulary => ({ labels, joins, sourceTagged, counts });
const JSON_ONLY = vocabulary([]);
const MESSAGE = vocabulary(['[image, offloaded]', '[image]', ...STRINGIFIED], '', true);
const TURN_STEP = vocabulary(['turn', 'step', ...STRINGIFIED]);
const PREVIEW_VOCABULARY: ReadonlyMap<string, PreviewVocabulary> = new Map([
  ['user/message', MESSAGE],
  ['assistant/message', MESSAGE],
  ['system/message', MESSAGE],
  ['developer/message', MESSAGE],
  ['tool/result', MESSAGE],
  ['assistant/chunk', vocabulary(STRINGIFIED)],
  ['tool/call', vocabulary(STRINGIFIED)],
  ['turn/start', TURN_STEP],
  ['turn/end', TURN_STEP],
  ['step/start', TURN_STEP],
  ['step/end', TURN_STEP],
  ['request/header', vocabulary(STRINGIFIED, '/')],
  ['session/title', vocabulary(STRINGIFIED)],
  ['todo/write', vocabulary(['todos'], '', false, true)],
  ['working-directory/change', vocabulary(['cwd', ...STRINGIFIED])],
]);
const PLUGIN_RECORD = vocabulary(['plugin record']);

/** The preview vocabulary of an event type (plugin records by their type's grammar). */
export function previewVocabulary(type: string): PreviewVocabulary {
  return isPluginRecordType(type) ? PLUGIN_RECORD : PREVIEW_VOCABULARY.get(type) ?? JSON_ONLY;
}

function clip(s: string): string {
  // Cut before flattening: a tool output can be megabytes, the preview is one line.
  const flat = s.slice(0, MAX * 4).replace(/\s+/g, ' ').trim();
  return flat.length > MAX ? flat.slice(0, MAX - 1) + '…' : flat;
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (!isPlainObject(block)) continue;
    if (typeof block.text === 'string') parts.push(block.text);
    else if (block.type === 'tool-call') parts.push(`→ ${String(block.name)}(${String(block.arguments ?? '')})`);
    else if (block.type === 'tool-result') parts.push(textOf(block.content));
    else if (block.type === 'image') parts.push(block.offloaded ? '[image, offloaded]' : '[image]');
    else if (typeof block.toolName === 'string') parts.push(`${String(block.type)} ${block.toolName}`);
    if (parts.join(' ').length > MAX) break;
  }
  return parts.join(' ');
}

/** A message preview, led by its source label when the role alone does not say where it came from. */
function messagePreview(message: unknown): string {
  if (!isPlainObject(message)) return '';
  const tag = sourceTag(message.source);
  return clip(`${tag ? `[${tag}] ` : ''}${textOf(message.content)}`);
}

export function eventPreview(event: LogEvent): string {
  const d = event.data;
  // Plugin records carry any JSON, arrays included (dsh-log-rules V4.3).
  if (isPluginRecord(event)) return clip(`plugin record · ${JSON.stringify(d) ?? ''}`);
  if (!isPlainObject(d)) return '';
  switch (event.type) {
    case 'user/message':
      return messagePreview(d);
    case 'assistant/message':
    case 'system/message':
    case 'developer/message':
    case 'tool/result':
      return messagePreview(d.message);
    case 'assistant/chunk': {
      const c = isPlainObject(d.chunk) ? d.chunk : {};
      const body = c.text ?? c.argumentsDelta ?? (isPlainObject(c.reason) ? c.reason.kind : c.blockType ?? '');
      return clip(`${String(c.type)} ${typeof body === 'string' ? JSON.stringify(body) : ''}`);
    }
    case 'tool/call':
      return clip(`${String(d.name)} ${String(d.arguments ?? '')}`);
    case 'turn/start':
      return `turn ${String(d.turn)}`;
    case 'turn/end':
      return `turn ${String(d.turn)} · ${isPlainObject(d.reason) ? String(d.reason.kind) : ''}`;
    case 'step/start':
    case 'step/end':
      return `turn ${String(d.turn)} step ${String(d.step)}`;
    case 'request/header':
      return clip(`${String(d.reason ?? '')} · ${isPlainObject(d.header) && isPlainObject(d.header.config) ? `${String(d.header.config.provider)}/${String(d.header.config.model)}` : ''}`);
    case 'session/title':
      return clip(String(d.title ?? ''));
    case 'todo/write':
      return Array.isArray(d.todos) ? `${d.todos.length} todos` : '';
    case 'working-directory/change':
      return clip(`cwd ${typeof d.cwd === 'string' ? d.cwd : JSON.stringify(d.cwd)}`);
    default:
      return clip(JSON.stringify(d));
  }
}
