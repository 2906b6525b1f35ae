import type { EventStore } from '../../core/log/event-store.ts';
import type { LogEvent } from '../../core/log/types.ts';
import { deriveEventMessage } from '../../core/messages/derive.ts';
import { summarizeStream, type StreamSummary } from '../../core/messages/stream-summary.ts';
import type { Replay } from '../../core/replay/replay-index.ts';
import type { ToolPairs } from '../../core/replay/tool-pairs.ts';
import { eventPreview } from '../../core/replay/preview.ts';
import { spawnPointOf, SPAWN_TYPES, type SpawnPoint } from '../../core/workspace/forks.ts';
import type { EventDetail, RowSummary, ToolCallRef } from '../protocol.ts';

/** Rows one `rows` answer holds at most. */
const ROWS_MAX = 1000;
/** A stream summary reads at most this many chunks: its first ones and the last STREAM_READ_TAIL. */
const STREAM_READ_MAX = 4000;
const STREAM_READ_TAIL = 500;

/** What the events list and the inspector ask of a log: rows, one event, one stream. Answered for a log still loading too. */
export interface EventsReader {
  rows(from: number, count: number): RowSummary[];
  event(index: number): EventDetail;
  stream(from: number, to: number): StreamSummary;
}

/** Rows from…from+count of `events`; those from `firstSynthetic` on were appended by the restore. */
function rowsOf(events: EventStore, from: number, count: number, firstSynthetic: number, pairs: ToolPairs | null): RowSummary[] {
  const out: RowSummary[] = [];
  for (let i = Math.max(0, from); i < Math.min(events.length, from + Math.min(count, ROWS_MAX)); i++) {
    const e = events.at(i)!;
    const row: RowSummary = { index: i, seq: e.seq, type: e.type, preview: eventPreview(e), synthetic: i >= firstSynthetic };
    const asCall = pairs?.ofCall(i);
    const asResult = asCall ? undefined : pairs?.ofResult(i);
    if (asCall) row.pair = { other: asCall.result, name: asCall.name, status: asCall.result < 0 ? 'pending' : asCall.isError ? 'error' : 'ok', ms: asCall.ms };
    else if (asResult) row.pair = { other: asResult.call, name: asResult.name, status: asResult.isError ? 'error' : 'ok', ms: asResult.ms };
    out.push(row);
  }
  return out;
}

/**
 * One streamed output (events `from`…`to`-1, a run of chunks) in a line. A very long stream is
 * read at its start and its end only: the preview needs its first words and how it ended.
 */
function streamOf(events: EventStore, from: number, to: number): StreamSummary {
  const end = Math.min(to, events.length);
  const picked: LogEvent[] = [];
  const take = (a: number, b: number) => { for (let i = Math.max(0, a); i < b; i++) { const e = events.peek(i); if (e) picked.push(e); } };
  if (end - from <= STREAM_READ_MAX) take(from, end);
  else { take(from, from + STREAM_READ_MAX - STREAM_READ_TAIL); take(end - STREAM_READ_TAIL, end); }
  return summarizeStream(picked);
}

/**
 * The part of a log read so far, while its load runs: the events list,
 * timeline and inspector show it. Calls and results are not paired yet (a
 * result may come long after its call) and nothing is kept (the next
 * answer may see more of a stream).
 */
export class LoadingEvents implements EventsReader {
  constructor(private readonly store: EventStore) {}

  rows(from: number, count: number): RowSummary[] {
    return rowsOf(this.store, from, count, this.store.length, null);
  }

  event(index: number): EventDetail {
    const event = this.store.at(index);
    if (!event) throw new Error(`no event at index ${index} yet`);
    return { index, event, origin: this.store.origin(index), synthetic: false, diagnostics: [], surfaceStatus: 'loading', message: null, call: null, spawn: null };
  }

  stream(from: number, to: number): StreamSummary {
    return streamOf(this.store, from, to);
  }
}

/** The open log's events: rows with their call/result pairs, an event's place on the final surface, streams and spawn points kept once read. */
export class EventsService implements EventsReader {
  /** Stream summaries the events list asked for, by run (`from:to`): a row scrolled back into view asks again. */
  private readonly streams = new Map<string, StreamSummary>();
  /** The log's spawn points (asked for only in a workspace of several logs), found once. */
  private spawnPoints: SpawnPoint[] | null = null;

  constructor(private readonly replay: Replay<EventStore>, private readonly pairs: ToolPairs) {}

  rows(from: number, count: number): RowSummary[] {
    const { session } = this.replay;
    return rowsOf(session.events, from, count, session.loggedCount, this.pairs);
  }

  event(index: number): EventDetail {
    const { session } = this.replay;
    const event = session.events.at(index);
    if (!event) throw new Error(`no event at index ${index}`);
    const logged = index < session.loggedCount;
    const shadow = session.surface.replacements.find((r) => r.shadowedSeqs.includes(event.seq));
    return {
      index,
      event,
      origin: logged ? session.originAt(index) : null,
      synthetic: !logged,
      diagnostics: session.diagnostics.filter((d) => d.seq === event.seq),
      surfaceStatus: session.surface.nodes.includes(event.seq) ? 'node' : shadow ? 'shadowed' : 'not-a-node',
      shadowedBy: shadow?.seq,
      message: deriveEventMessage(event),
      call: event.type === 'tool/result' ? this.callOf(event) : null,
      spawn: spawnPointOf(event),
    };
  }

  stream(from: number, to: number): StreamSummary {
    const key = `${from}:${to}`;
    let summary = this.streams.get(key);
    if (!summary) { summary = streamOf(this.replay.session.events, from, to); this.streams.set(key, summary); }
    return summary;
  }

  /** Where this log starts child sessions (subagent calls, catalog and workflow records), read once from those events only. */
  spawns(): SpawnPoint[] {
    if (this.spawnPoints) return this.spawnPoints;
    const { session, index } = this.replay;
    const ids = new Set(SPAWN_TYPES.map((t) => index.typeNames.indexOf(t)).filter((t) => t >= 0));
    const out: SpawnPoint[] = [];
    const { typeId } = index.columns;
    for (let i = 0; i < session.loggedCount; i++) {
      if (!ids.has(typeId[i])) continue;
      const point = spawnPointOf(session.events.at(i)!);
      if (point) out.push(point);
    }
    this.spawnPoints = out;
    return out;
  }

  /** The tool call a tool result answers: the `tool/call` among its sourceEventSeqs. */
  private callOf(event: LogEvent): ToolCallRef | null {
    for (const seq of event.sourceEventSeqs ?? []) {
      const call = this.replay.session.eventAt(seq);
      if (call?.type !== 'tool/call') continue;
      const d = call.data ?? {};
      return { seq, callId: typeof d.callId === 'string' ? d.callId : null, name: String(d.name ?? ''), arguments: d.arguments };
    }
    return null;
  }
}
