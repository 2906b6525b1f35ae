import type { EventStore } from '../../core/log/event-store.ts';
import { eventPreview } from '../../core/replay/preview.ts';
import type { Replay } from '../../core/replay/replay-index.ts';
import { linePrefilter } from '../../core/search/line-prefilter.ts';
import { LineScreen } from '../../core/search/line-screen.ts';
import type { NotedCalls } from '../../core/search/noted-calls.ts';
import { eventTurn, matchesQuery, parseQuery } from '../../core/search/query.ts';
import { toolLineCheck } from '../../core/search/tool-lines.ts';
import type { SearchProgress, SearchResult } from '../protocol.ts';
import { PAUSE_EVERY_MS, yieldEvery } from '../yield-every.ts';

/** A content search keeps this many match positions (it counts them all). */
const SEARCH_KEEP = 200_000;
/** The least gap between a search's progress reports. */
const PROGRESS_INTERVAL_MS = 100;

/**
 * The open log's searches: the next event whose type or preview holds a
 * text, and every event matching a content query (core/search/query.ts),
 * scanned in the background. A scan pauses every few ms to let the worker
 * answer the page, and stops when a newer search starts, it is cancelled,
 * or its log is closed.
 */
export class SearchService {
  /** Bumped by every content search and its cancel: a running scan that sees another number stops. */
  private token = 0;

  /** `calls`: the log's tool call names as of each event, noted by its load (a `tool:` search reads them). */
  constructor(private readonly replay: Replay<EventStore>, private readonly calls: NotedCalls) {}

  /** The next (dir 1) or previous (dir -1) event after `from` whose type or one-line preview holds `text`. */
  search(text: string, from: number, dir: 1 | -1): number | null {
    const needle = text.toLowerCase();
    return this.replay.find((type) => type.includes(needle), (e) => eventPreview(e).toLowerCase().includes(needle), from, dir);
  }

  async searchAll(text: string, onProgress: (p: SearchProgress) => void = () => {}): Promise<SearchResult> {
    const token = ++this.token;
    const { replay, calls } = this;
    const query = parseQuery(text);
    const events = replay.session.events;
    const total = events.length;
    const { typeId } = replay.index.columns;
    const names = replay.index.typeNames;
    // A type filter is decided from the columns: other types are never parsed.
    const typeOk = names.map((t) => query.type === undefined || t.toLowerCase() === query.type || t.toLowerCase().startsWith(query.type.endsWith('/') ? query.type : `${query.type}/`));
    const turnStart = names.indexOf('turn/start');
    // Lines whose raw text rules out a match are not parsed (line-prefilter.ts says why that is exact).
    const prefilter = linePrefilter(query, names);
    // A `tool:` filter reads the call names the load noted as of each event (noted-calls.ts), and
    // keeps only lines that name the tool or a call noted with it (tool-lines.ts).
    const toolCheck = query.tool !== undefined ? toolLineCheck(query.tool) : null;
    const screen = prefilter || toolCheck ? new LineScreen(events, prefilter, undefined, toolCheck && {
      block: (line, at) => toolCheck.block(line, calls.asOf(at)),
      line: (line, at) => toolCheck.line(line, calls.asOf(at)),
    }) : null;
    const found: number[] = [];
    let count = 0;
    let turn = 0;
    let lastReport = Date.now();
    const pauses = yieldEvery(PAUSE_EVERY_MS);
    try {
      for (let i = 0; i < total; i++) {
        // Checked before any skip: a scan that rules most lines out still answers the page.
        const paused = (i & 255) === 0 ? pauses.pause() : null;
        if (paused) {
          await paused;
          if (token !== this.token) throw new Error('cancelled');
          const now = Date.now();
          if (now - lastReport >= PROGRESS_INTERVAL_MS) { lastReport = now; onProgress({ searched: i, total, matches: count }); }
        }
        let wanted = typeOk[typeId[i]] ?? true;
        if (wanted && screen && !screen.admits(i, typeId[i])) wanted = false;
        // Turns are read from turn/start, whatever the filter.
        const turnNeeded = query.turn !== undefined && typeId[i] === turnStart;
        if (!wanted && !turnNeeded) continue;
        const e = events.peek(i);
        if (!e) continue;
        if (e.type === 'turn/start') turn = eventTurn(e, turn);
        if (wanted && matchesQuery(query, e, eventTurn(e, turn), calls.asOf(i))) {
          count++;
          if (found.length < SEARCH_KEEP) found.push(i);
        }
      }
    } finally {
      pauses.close();
    }
    return { text, matches: Uint32Array.from(found), count, capped: count > found.length };
  }

  /** Stops the running content search (its log was closed, or the page asked). */
  cancel(): void {
    this.token++;
  }
}
