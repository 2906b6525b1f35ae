import { readLogText } from '../log/reader.ts';
import { remapRowSeqs } from '../log/seq-refs.ts';
import { foldSession } from '../session/fold-session.ts';

/**
 * One long, valid, never-compacted session made of several real ones (the
 * long-session workload of docs/long-sessions.md): the first log's header, then each
 * log's records with seqs, times and turn numbers moved on so that they
 * continue the ones before. Every call of a later part sees the surface of
 * all the earlier parts, as a session on a 1M-token window does between
 * compactions. Records are rewritten row by row (packed rows stay packed).
 */
export interface ConcatPart {
  name: string;
  text: string;
}

export interface ConcatOptions {
  /** Stop once about this many events were written (parts repeat until then); default: each part once. */
  targetEvents?: number;
}

export interface ConcatResult {
  /** JSONL lines without '\n', the header first. */
  lines: string[];
  events: number;
  /** Parts used, and those left out with the reason. */
  used: string[];
  skipped: { name: string; reason: string }[];
}

interface Eligible {
  name: string;
  version: number;
  rows: Record<string, any>[];
  events: number;
  firstTime: number;
  lastTime: number;
}

/**
 * Whether a log can be a part: it loads with no finding of error severity,
 * has numbered rows, no replace (compaction, tool-result rewrite) or
 * message projection, is not a fork, and ends with its turns closed.
 */
function eligible(part: ConcatPart): Eligible | string {
  const read = readLogText(part.text);
  if (!read.header) return 'no session header';
  const session = foldSession(read);
  const errors = session.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) return `${errors[0].code}: ${errors[0].message}`;
  if (session.diagnostics.some((d) => d.code === 'row.numbered')) return 'rows carry no seq (a normalized snapshot)';
  // The restore always appends an end-seed marker; closers mean a turn was left open.
  if (session.synthetic.some((e) => e.type !== 'session/end-seed')) return 'ends inside a turn';
  if (session.surface.replacements.length || session.surface.contentGeneration) return 'has a replace or a message projection';
  if (read.header.parentSession || read.header.seedLength || read.header.isSeeded) return 'a fork';
  if (read.events.some((e) => e.type === 'session/end-seed')) return 'has an end-seed marker';
  if (read.events.length === 0) return 'no events';
  const rows = part.text.split('\n').slice(1).filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, any>);
  return {
    name: part.name,
    version: read.version,
    rows,
    events: read.events.length,
    firstTime: read.events[0].time,
    lastTime: read.events[read.events.length - 1].time,
  };
}

export function concatSessions(parts: readonly ConcatPart[], options: ConcatOptions = {}): ConcatResult {
  const skipped: { name: string; reason: string }[] = [];
  const usable: Eligible[] = [];
  let header: Record<string, unknown> | null = null;
  for (const part of parts) {
    const e = eligible(part);
    if (typeof e === 'string') { skipped.push({ name: part.name, reason: e }); continue; }
    if (usable.length && e.version !== usable[0].version) { skipped.push({ name: part.name, reason: `format ${e.version}, not ${usable[0].version}` }); continue; }
    header ??= JSON.parse(part.text.slice(0, part.text.indexOf('\n'))) as Record<string, unknown>;
    usable.push(e);
  }
  if (!header || usable.length === 0) return { lines: [], events: 0, used: [], skipped };
  const lines = [JSON.stringify(header)];
  let seqBase = 0;
  let turnBase = 0;
  let time = usable[0].firstTime;
  let round = 0;
  const target = options.targetEvents ?? usable.reduce((n, p) => n + p.events, 0);
  while (seqBase < target) {
    for (const part of usable) {
      if (seqBase >= target) break;
      const shift = { seq: seqBase, turn: turnBase, time: time - part.firstTime, round, first: seqBase === 0 };
      let maxTurn = 0;
      for (const row of part.rows) {
        const moved = moveRow(row, shift);
        maxTurn = Math.max(maxTurn, moved.turn);
        lines.push(JSON.stringify(moved.row));
      }
      seqBase += part.events;
      turnBase += maxTurn;
      time += part.lastTime - part.firstTime + 1000;
    }
    round++;
  }
  return { lines, events: seqBase, used: usable.map((p) => p.name), skipped };
}

interface Shift {
  seq: number;
  turn: number;
  time: number;
  /** Which repetition of the parts: message ids get it as a suffix, so each id stays unique. */
  round: number;
  /** The very first part: its initial request/header stays `initial`. */
  first: boolean;
}

function moveRow(row: Record<string, any>, s: Shift): { row: Record<string, any>; turn: number } {
  // Every seq the row holds moves with the seqs (the one table of them: log/seq-refs.ts).
  const out: Record<string, any> = { ...remapRowSeqs(row, (seq) => seq + s.seq).row };
  if (typeof out.time === 'number') out.time += s.time;
  if (typeof out.time0 === 'number') out.time0 += s.time;
  let turn = 0;
  if (out.data && typeof out.data === 'object') {
    const data: Record<string, any> = { ...out.data };
    if (typeof data.turn === 'number') { turn = data.turn; data.turn += s.turn; }
    // A later part continues the session: its first header resumes it (dsh-log-rules P6.2).
    if (out.type === 'request/header' && data.reason === 'initial' && !s.first) data.reason = 'resume';
    if (s.round > 0) {
      if (out.type === 'user/message' && typeof data.id === 'string') data.id = `${data.id}~${s.round}`;
      if (data.message && typeof data.message.id === 'string') data.message = { ...data.message, id: `${data.message.id}~${s.round}` };
    }
    out.data = data;
  }
  return { row: out, turn };
}
