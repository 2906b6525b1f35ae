import type { LogEvent } from '../log/types.ts';
import { eventPreview } from '../replay/preview.ts';

/**
 * Search in content (docs/open-and-navigate.md, "Search"): what the model, the user or a tool said,
 * not only event types. A query is words (all must occur, case-insensitive,
 * in the event's type or any of its text: message text, reasoning, tool
 * arguments and results, streamed deltas) and filters that narrow it:
 * `type:tool/call` (a type, or a family prefix such as `type:tool`),
 * `tool:bash`, `job:<id or kind>`, `role:user`, `turn:3`, `error`. Quote a
 * phrase: "exit code 1".
 */
export interface SearchQuery {
  words: string[];
  type?: string;
  tool?: string;
  /** A background job's id or kind: its `job/registered` and `job/settled` records (V6). */
  job?: string;
  role?: string;
  turn?: number;
  error?: boolean;
}

/** Parses a query; unknown `key:value` pairs stay words (a colon in text is common). */
export function parseQuery(text: string): SearchQuery {
  const q: SearchQuery = { words: [] };
  for (const m of text.matchAll(/"([^"]*)"|(\S+)/g)) {
    const token = m[1] ?? m[2];
    if (m[1] !== undefined) { if (token) q.words.push(token.toLowerCase()); continue; }
    const f = /^(type|tool|job|role|turn):(.+)$/i.exec(token);
    if (f) {
      const key = f[1].toLowerCase();
      if (key === 'turn') { const n = Number(f[2]); if (Number.isSafeInteger(n)) { q.turn = n; continue; } }
      else { q[key as 'type' | 'tool' | 'job' | 'role'] = f[2].toLowerCase(); continue; }
    }
    if (token.toLowerCase() === 'error') { q.error = true; continue; }
    q.words.push(token.toLowerCase());
  }
  return q;
}

/** The text of every string value in `value` (keys left out), lower-cased, for word matching. */
function textOf(value: unknown, out: string[], budget: { left: number }): void {
  if (budget.left <= 0) return;
  if (typeof value === 'string') { out.push(value.toLowerCase()); budget.left -= value.length; return; }
  if (Array.isArray(value)) { for (const v of value) textOf(v, out, budget); return; }
  if (value && typeof value === 'object') for (const v of Object.values(value)) textOf(v, out, budget);
}

/** One event's message, wherever its type keeps it. */
const messageOf = (e: LogEvent): any => (e.type === 'user/message' ? e.data?.message ?? e.data : e.data?.message);

/** Tool call names by call id, as noted up to the event being matched (a Map, or NotedCalls' view of it). */
export type CallNames = Pick<ReadonlyMap<string, string>, 'has' | 'get'>;

/** Tool names an event names: a call's, a streamed call's, an assistant message's tool-call blocks. */
function toolNames(e: LogEvent, callNames: CallNames): string[] {
  const d = e.data;
  const names: string[] = [];
  if (e.type === 'tool/call' && typeof d?.name === 'string') names.push(d.name);
  if (e.type === 'assistant/chunk' && typeof d?.chunk?.name === 'string') names.push(d.chunk.name);
  const m = messageOf(e);
  if (Array.isArray(m?.content)) for (const b of m.content) if (b?.type === 'tool-call' && typeof b.name === 'string') names.push(b.name);
  // A result names its call by id (≤V3 in a tool-result block, V4 on the message).
  const ids: unknown[] = [m?.toolCallId, m?.source?.callId, ...(Array.isArray(m?.content) ? m.content.map((b: any) => b?.toolCallId) : [])];
  for (const id of ids) if (typeof id === 'string' && callNames.has(id)) names.push(callNames.get(id)!);
  return names.map((n) => n.toLowerCase());
}

/** Whether a job record (V6) is of the job `job` names: its id, or its kind, case-insensitive. */
function namesJob(e: LogEvent, job: string): boolean {
  if (!e.type.startsWith('job/')) return false;
  const d = e.data;
  return [d?.id, d?.kind].some((v) => typeof v === 'string' && v.toLowerCase() === job);
}

function isError(e: LogEvent): boolean {
  const d = e.data;
  const m = messageOf(e);
  return m?.isError === true || /error|fail/i.test(e.type) || d?.chunk?.reason?.kind === 'error' || d?.reason?.kind === 'error' || d?.reason?.kind === 'failed';
}

/** Text read per event at most: a huge tool result is searched in its first few MB. */
const TEXT_BUDGET = 4 << 20;

/**
 * Whether `event` (at turn `turn`) matches. `callNames` maps tool call ids to
 * names for `tool:` on results; the caller fills it as calls go by (see `noteCall`).
 */
export function matchesQuery(q: SearchQuery, event: LogEvent, turn: number, callNames: CallNames): boolean {
  if (q.turn !== undefined && turn !== q.turn) return false;
  if (q.type !== undefined && !(event.type.toLowerCase() === q.type || event.type.toLowerCase().startsWith(q.type.endsWith('/') ? q.type : `${q.type}/`))) return false;
  if (q.role !== undefined) {
    const role = messageOf(event)?.role ?? (event.type === 'user/message' ? 'user' : undefined);
    if (typeof role !== 'string' || role.toLowerCase() !== q.role) return false;
  }
  if (q.error && !isError(event)) return false;
  if (q.tool !== undefined && !toolNames(event, callNames).includes(q.tool)) return false;
  if (q.job !== undefined && !namesJob(event, q.job)) return false;
  if (!q.words.length) return true;
  // The type, the one-line preview the events list shows (its labels too: "plugin record", "[working directory]"), and every text.
  const texts: string[] = [event.type.toLowerCase(), eventPreview(event).toLowerCase()];
  textOf(event.data, texts, { left: TEXT_BUDGET });
  return q.words.every((w) => texts.some((t) => t.includes(w)));
}

/**
 * The turn `turn:` reads for an event: its own `turn` field, else the turn
 * the last `turn/start` opened (`running`; a turn/start passes its own).
 */
export function eventTurn(event: LogEvent, running: number): number {
  return typeof event.data?.turn === 'number' ? event.data.turn : running;
}

/** Remembers a tool call's name by its id, for `tool:` on the results that answer it. */
export function noteCall(event: LogEvent, callNames: Map<string, string>): void {
  if (event.type === 'tool/call' && typeof event.data?.callId === 'string' && typeof event.data?.name === 'string') callNames.set(event.data.callId, event.data.name);
  const m = messageOf(event);
  if (Array.isArray(m?.content)) for (const b of m.content) if (b?.type === 'tool-call' && typeof b.id === 'string' && typeof b.name === 'string') callNames.set(b.id, b.name);
}

/** The words a view should mark in the text it shows (filters mark nothing). */
export function highlightWords(text: string): string[] {
  return parseQuery(text).words;
}
