import type { LogEvent } from '../log/types.ts';
import { eventTurn, matchesQuery, noteCall, parseQuery } from '../search/query.ts';
import { boundedPreview } from './around.ts';

/** One match of `dsh-devtools find`: the event, and the text around the first word the query names. */
export interface FindMatch {
  seq: number;
  type: string;
  turn: number | null;
  preview: string;
  /** The matched word in its text, with up to `context` characters either side (null: the filters alone matched). */
  context: string | null;
}

export interface FindResult {
  query: string;
  matches: FindMatch[];
  /** Matches in the whole log (the list holds at most `limit`). */
  total: number;
}

/** Every string of an event's data, in order (where the search looks for words). */
function strings(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
}

function contextOf(event: LogEvent, words: readonly string[], chars: number): string | null {
  if (!words.length) return null;
  const texts: string[] = [];
  strings(event.data, texts);
  for (const text of texts) {
    const at = text.toLowerCase().indexOf(words[0]);
    if (at < 0) continue;
    const from = Math.max(0, at - chars);
    const to = Math.min(text.length, at + words[0].length + chars);
    return `${from > 0 ? '…' : ''}${text.slice(from, to).replace(/\s+/g, ' ')}${to < text.length ? '…' : ''}`;
  }
  return null;
}

/**
 * The events a query matches, in log order: the app's search language
 * (core/search/query.ts: words, `type:`, `tool:`, `job:`, `role:`, `turn:`, `error`).
 */
export function findEvents(events: Iterable<LogEvent>, text: string, limit: number, context = 80): FindResult {
  const query = parseQuery(text);
  const calls = new Map<string, string>();
  const matches: FindMatch[] = [];
  let total = 0;
  let running = 0;
  for (const e of events) {
    if (e.type === 'turn/start') running = eventTurn(e, running);
    const turn = eventTurn(e, running);
    // As the app's search does: the calls noted up to and including this event (core/search/noted-calls.ts).
    noteCall(e, calls);
    if (!matchesQuery(query, e, turn, calls)) continue;
    total++;
    if (matches.length < limit) matches.push({ seq: e.seq, type: e.type, turn: turn > 0 ? turn : null, preview: boundedPreview(e, 160), context: contextOf(e, query.words, context) });
  }
  return { query: text, matches, total };
}
