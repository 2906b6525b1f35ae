import type { ByteSource } from '../log/bytes.ts';
import { LineStore } from '../log/line-store.ts';
import { runMember } from '../log/packed-rows.ts';
import { readLog } from '../log/reader.ts';
import type { LogEvent } from '../log/types.ts';
import { familyOf, type Family } from '../replay/families.ts';
import { eventPreview } from '../replay/preview.ts';
import { anyTypeLineFilter } from '../search/line-prefilter.ts';

/**
 * Search across the sessions of a folder (docs/sessions-folder.md). The query is the
 * Events panel's: a text found in an event's type or its one-line preview,
 * case-insensitive, and the event families shown. The matcher is behind
 * `EventMatcher` so a richer query language (src/core/search) can take its
 * place without touching the folder scan.
 */
export interface EventQuery {
  text: string;
  /** Families to search; empty or absent: every family. */
  families?: readonly Family[];
}

export interface EventMatcher {
  /** Whether an event of this type can match at all (checked once per type; false skips the parse of the preview). */
  typeAllowed(type: string): boolean;
  matches(event: LogEvent): boolean;
  /** Whether any event of a raw log line may match (false: the line is not parsed); absent, every line is. */
  mayMatchLine?: ((text: string) => boolean) | null;
}

/** The Events panel's search as a matcher: the type or the preview contains the text. */
export function eventsPanelMatcher(query: EventQuery): EventMatcher {
  const needle = query.text.toLowerCase();
  const families = query.families?.length ? new Set(query.families) : null;
  return {
    typeAllowed: (type) => families === null || families.has(familyOf(type)),
    matches: (event) => needle !== '' && (event.type.toLowerCase().includes(needle) || eventPreview(event).toLowerCase().includes(needle)),
    // Most lines of a log hold no piece of the text: they are not parsed (content search's line filter).
    mayMatchLine: anyTypeLineFilter({ words: [needle] }),
  };
}

export interface SearchHit {
  seq: number;
  type: string;
  /** The event's one-line preview, as the Events panel shows it. */
  preview: string;
}

export interface SearchOptions {
  /** Hits kept per log; the scan stops there (the count says there may be more). */
  limit?: number;
  cancelled?: () => boolean;
  pause?: () => Promise<void> | null;
}

export interface LogSearch {
  hits: SearchHit[];
  /** The scan stopped at the limit. */
  more: boolean;
}

/** One log scanned for events that match, in seq order, keeping neither its bytes nor its events. */
export async function searchLog(source: ByteSource, matcher: EventMatcher, options: SearchOptions = {}): Promise<LogSearch> {
  const limit = options.limit ?? 100;
  const hits: SearchHit[] = [];
  const allowed = new Map<string, boolean>();
  const consider = (event: LogEvent) => {
    if (hits.length >= limit) return;
    let ok = allowed.get(event.type);
    if (ok === undefined) allowed.set(event.type, (ok = matcher.typeAllowed(event.type)));
    if (ok && matcher.matches(event)) hits.push({ seq: event.seq, type: event.type, preview: eventPreview(event) });
  };
  let full = false;
  const mayMatch = matcher.mayMatchLine;
  await readLog(source, {
    retainEvents: false,
    lines: new LineStore(false),
    ...(mayMatch ? { skipLine: (text: string) => !mayMatch(text) } : {}),
    pause: options.pause,
    cancelled: (reader) => options.cancelled?.() === true || (full = hits.length >= limit) || (reader.lineCount > 0 && reader.sessionHeader === null),
    onEvent: ({ event }) => consider(event),
    onRun(run) {
      for (let k = 0; k < run.pieces.length && hits.length < limit; k++) consider(runMember(run, k));
    },
  });
  return { hits, more: full || hits.length >= limit };
}
