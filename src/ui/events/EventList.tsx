import { useDeferredCursor, useDeferredSelected } from '../hooks/useDeferredCursor.ts';
import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { useView } from '../../store/view.ts';
import { useRows } from '../hooks/useRows.ts';
import { useFixedRows, useKeepFixedRowInView } from '../hooks/useFixedRows.ts';
import { grownStreamRuns, runOf, streamRuns } from '../../core/replay/stream-runs.ts';
import { GroupedRowsCache } from './grouped-rows.ts';
import { countAtOrBelow, firstWhere, positionOf } from '../../core/util/sorted.ts';
import { StreamRow, type StreamMarks } from './StreamRow.tsx';
import { EventRow, ROW_H } from './EventRow.tsx';
import { FamilyFilters, type EventSort } from './FamilyFilters.tsx';
import { columnCharsOf, columnMaxima, rowOfEvents, sortedRows } from './visible-rows.ts';
import { GrownRowsCache } from '../grown-rows-cache.ts';
import './events.css';
import type { SearchProgress, SearchResult } from '../../worker/protocol.ts';

const NO_RUNS = new Uint32Array(0);

/** A log's streams (runs of chunk events), extended as a followed log grows (grown-rows-cache.ts). */
const runsByRows = new GrownRowsCache<Uint32Array>((summary, kept, from) => {
  const chunkType = summary.typeNames.indexOf('assistant/chunk');
  return kept ? grownStreamRuns(summary.columns, summary.count, chunkType, { runs: kept, count: from }) : streamRuns(summary.columns, summary.count, chunkType);
});

/** The highest turn and step of a log's rows, extended as a loading or followed log grows (grown-rows-cache.ts). */
const maximaByRows = new GrownRowsCache<{ turn: number; step: number }>((summary, kept, from) => columnMaxima(summary.columns, summary.count, from, kept));

/** Every event in seq order (virtualized), with filters and search; click selects, double-click seeks. */
export function EventList() {
  const summary = useSession((s) => s.summary);
  const client = useSession((s) => s.client);
  const cursor = useDeferredCursor();
  const selected = useDeferredSelected();
  const seek = useCursor((s) => s.seek);
  const hidden = useView((s) => s.hiddenFamilies);
  const search = useView((s) => s.search);
  const setSearch = useView((s) => s.setSearch);
  const row = useRows();
  const scroller = useRef<HTMLDivElement>(null);

  const rawStreams = useView((s) => s.rawStreams);
  const [sort, setSort] = useState<EventSort>('seq');
  // Streamed outputs (runs of chunk events) as one row each, in seq order; the raw rows a toggle away.
  // Found once the log is read: while it loads, its rows come in every few hundred ms and are shown as logged.
  const runs = useMemo(() => (summary && !summary.partial ? runsByRows.get(summary) : NO_RUNS), [summary]);
  const grouped = !rawStreams && sort === 'seq' && runs.length > 0;
  /** Streams shown expanded, by their first event. */
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const logKey = summary ? `${summary.name}\u0000${summary.fingerprint}` : '';
  useEffect(() => { setOpen(new Set()); setFound(null); setProgress(null); }, [logKey]);
  // Stable, so a memoized stream row is not re-rendered for a new handler.
  const toggle = useCallback((start: number) => setOpen((o) => { const n = new Set(o); if (n.has(start)) n.delete(start); else n.add(start); return n; }), []);
  /** The last search found nothing anywhere in the log. */
  const [miss, setMiss] = useState(false);
  /** The finished content search of the box's text (its matches), and the one running. */
  const [found, setFound] = useState<SearchResult | null>(null);
  const [progress, setProgress] = useState<SearchProgress | null>(null);
  useEffect(() => setMiss(false), [summary]);
  const groupedCache = useRef<GroupedRowsCache | null>(null);
  // Visible event indexes after the family filter and sort (derived from the columns, never stored).
  const visible = useMemo(() => {
    if (!summary) return new Uint32Array(0);
    if (hidden.length === 0 && sort === 'seq' && !grouped) return null;
    const hiddenIds = new Set(hidden.map((f) => summary.families.indexOf(f)));
    // A bit per hidden family: the grouped rows test each of a million events.
    const hiddenBits = [...hiddenIds].reduce((bits, id) => (id >= 0 ? bits | (1 << id) : bits), 0);
    // Kept and extended while a followed log grows (grouped-rows.ts).
    if (grouped) return (groupedCache.current ??= new GroupedRowsCache()).rows(summary, runs, open, hiddenBits);
    return sortedRows(summary.count, summary.columns, summary.typeNames, hiddenIds, sort);
  }, [summary, hidden, sort, grouped, runs, open]);
  const sorted = sort !== 'seq';
  // Sorted rows are not in seq order: the cursor's row is looked up, not searched for, on each step.
  const sortedRowOf = useMemo(() => (visible && sorted && summary ? rowOfEvents(visible, summary.count) : null), [visible, sorted, summary]);
  // The seq and turn.step columns as wide as this log's longest values (in digit widths).
  const widths = useMemo(() => (summary ? columnCharsOf(maximaByRows.get(summary), summary.columns, summary.count) : { seq: 1, turnStep: 3 }), [summary]);
  const count = visible ? visible.length : summary?.count ?? 0;
  const at = (k: number) => (visible ? visible[k] : k);
  /** In grouped rows, the list holds `index` for an event and `-(start + 1)` for a stream's own row. */
  const headOf = (v: number) => (v < 0 ? -v - 1 : null);

  // Every row is ROW_H tall: the rows in view are arithmetic, whatever the count (a 1M-event log).
  const { rows: shownRows, totalSize, viewport } = useFixedRows(scroller, count, ROW_H, 20);
  // The cursor's row (found in the visible rows when they are filtered, sorted or grouped), kept in view.
  const cursorRow = useMemo(() => {
    if (sortedRowOf) return cursor >= 0 && cursor < sortedRowOf.length ? sortedRowOf[cursor] : -1;
    if (visible && grouped) return rowOfEvent(visible, runs, open, cursor);
    // The first visible row at or after the cursor (the last row when none is).
    if (visible) return Math.min(countAtOrBelow(visible, cursor - 1), visible.length - 1);
    return cursor;
  }, [cursor, visible, sortedRowOf, grouped, runs, open]);
  useKeepFixedRowInView(scroller, viewport, cursorRow, count, ROW_H);

  if (!summary) return null;
  /** The matches of the box's text: the finished search when it is the same text, else a new one (off the page's thread). */
  const matches = async (): Promise<SearchResult | null> => {
    if (found?.text === search) return found;
    setProgress({ searched: 0, total: summary.count, matches: 0 });
    try {
      const result = await client!.searchAll(search, setProgress);
      setFound(result);
      return result;
    } catch {
      return null; // cancelled, or a newer search took over
    } finally {
      setProgress(null);
    }
  };
  const find = async (dir: 1 | -1) => {
    if (!client || !search) return;
    const result = await matches();
    if (!result) return;
    setMiss(result.count === 0);
    const hit = nextMatch(result.matches, cursor, dir);
    if (hit !== null) seek(hit);
  };
  // Which match the cursor is on (-1: none).
  const matchAt = found?.text === search && found.count ? positionOf(found.matches, cursor) : -1;
  return (
    <section className="panel events-panel" aria-label="Events">
      <div className="panel-head">
        <h2>Events</h2>
        <input className="search" placeholder="Find text, or type: tool: role: turn: error (Enter)" aria-label="Find events" value={search} onChange={(e) => { setSearch(e.target.value); setMiss(false); }}
          title="Searches every event's text (messages, reasoning, tool arguments and results) and type. Filters: type:tool/call, tool:bash, role:user, turn:3, error; quote a phrase. Enter: next match, Shift+Enter: previous."
          onKeyDown={(e) => {
            e.stopPropagation();
            if (e.key === 'Enter') void find(e.shiftKey ? -1 : 1);
            // Esc leaves the box, so the next key is a command again (it does not type into the search).
            if (e.key === 'Escape') e.currentTarget.blur();
          }} />
        {search && <span className="search-status">
          <button className="link" aria-label="Previous match" disabled={!!progress} onClick={() => void find(-1)}>‹</button>
          <button className="link" aria-label="Next match" disabled={!!progress} onClick={() => void find(1)}>›</button>
        </span>}
        <span role="status" className="muted">{miss && search ? 'no match'
          : progress ? <>searching… {Math.round((100 * progress.searched) / Math.max(1, progress.total))}% · {progress.matches.toLocaleString('en')} found <button className="link" onClick={() => void client?.cancelSearch()}>cancel</button></>
          : found?.text === search && found.count ? `${matchAt >= 0 ? `${(matchAt + 1).toLocaleString('en')} of ` : ''}${found.count.toLocaleString('en')}${found.capped ? '+' : ''} match${found.count === 1 ? '' : 'es'}` : ''}</span>
      </div>
      <FamilyFilters sort={sort} setSort={setSort} rawStreams={rawStreams} streams={runs.length > 0} families={summary.families} hidden={hidden} />
      <div ref={scroller} className="scroll" role="grid" aria-rowcount={count}
        style={{ '--seq-chars': `${widths.seq}ch`, '--turn-step-chars': `${widths.turnStep}ch` } as CSSProperties}>
        <div style={{ height: totalSize, position: 'relative' }}>
          {shownRows.map((v) => {
            const entry = at(v.index);
            const head = headOf(entry);
            if (head !== null) {
              const end = runs[runOf(runs, head) + 1];
              const marks: StreamMarks = { holdsCursor: cursor >= head && cursor < end, holdsSelected: selected >= head && selected < end, future: head > cursor };
              return <StreamRow key={`s${head}`} start={head} end={end} top={v.start} height={ROW_H} open={open.has(head)} marks={marks} onToggle={toggle} />;
            }
            const i = entry;
            const member = grouped && open.size > 0 && runOf(runs, i) >= 0 && open.has(runs[runOf(runs, i)]);
            const classes = ['event-row', `fam-${summary.families[summary.columns.family[i]]}`];
            if (i === cursor) classes.push('at-cursor');
            if (i === selected) classes.push('selected');
            if (i > cursor) classes.push('future');
            if (summary.columns.synthetic[i]) classes.push('synthetic');
            if (member) classes.push('stream-member');
            const inherited = i < summary.inherited.events;
            if (inherited) classes.push('inherited');
            return <EventRow key={i} summary={summary} i={i} top={v.start} className={classes.join(' ')} selected={i === selected} current={i === cursor} inherited={inherited} r={row(i)} />;
          })}
        </div>
      </div>
    </section>
  );
}

/** The row showing event `index` in grouped rows: its own, or its stream's when that is folded. */
function rowOfEvent(rows: ArrayLike<number>, runs: Uint32Array, open: ReadonlySet<number>, index: number): number {
  const r = runOf(runs, index);
  const target = r >= 0 && !open.has(runs[r]) ? runs[r] : index;
  // Rows ascend by the event they start at (a stream's row sorts at its first event, before its members).
  const key = (v: number) => (v < 0 ? -v - 1 : v);
  let lo = firstWhere(rows.length - 1, (m) => !(key(rows[m]) < target));
  // An open stream: its first event's own row comes right after the stream's row.
  if (r >= 0 && open.has(runs[r]) && rows[lo] < 0 && lo + 1 < rows.length) lo += index === runs[r] ? 1 : 0;
  return lo;
}

/** The next match after `from` in `dir`, wrapping around like a browser's find; null when there is none. */
function nextMatch(matches: Uint32Array, from: number, dir: 1 | -1): number | null {
  if (!matches.length) return null;
  // The first match after `from`.
  const after = countAtOrBelow(matches, from);
  if (dir === 1) return after < matches.length ? matches[after] : matches[0];
  const before = matches[after - 1] === from ? after - 2 : after - 1;
  return before >= 0 ? matches[before] : matches[matches.length - 1];
}
