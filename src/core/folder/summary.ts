import { firstRefusal, type Diagnostic } from '../diagnostics/diagnostic.ts';
import { logVerdict, type VerdictKind } from '../session/verdict.ts';
import type { ByteSource } from '../log/bytes.ts';
import { LineStore } from '../log/line-store.ts';
import { readLog } from '../log/reader.ts';
import type { LogMeta } from '../log/types.ts';
import { SessionLoader } from '../session/session-loader.ts';
import { childRefOf } from '../workspace/forks.ts';
import type { ModelUse } from './call-tally.ts';
import { SummaryRider } from './summary-rider.ts';
import { SurfaceEvents } from './surface-events.ts';

/**
 * One row of a sessions folder (docs/sessions-folder.md): what a table, a CI check or a
 * database wants of a log without opening it. Field names are the CLI's
 * NDJSON keys. Counts are exact: `events` is the logged events (packed
 * rows expanded), `calls` the model calls as the request analysis cuts
 * them, `findings` the reader's and the fold's (the ones the verdict rests
 * on; the prompt/request analysis is not run for a summary).
 */
export interface LogSummary {
  /** The path as given (relative to the folder). */
  file: string;
  /** Bytes of the file as stored (compressed when it is). */
  size: number;
  /** False for a file that is not a DSH session log (no header, empty, binary, not JSONL). */
  isLog: boolean;
  /** Why it is not a log, when it is not. */
  notLog: string | null;
  id: string | null;
  title: string | null;
  /** The header's format number (0 when it has none), null for a file that is not a log. */
  format: number | null;
  encoding: 'plain' | 'zstd' | 'gzip';
  /** Header createdAt and the last logged event's time (ms since the epoch). */
  createdAt: number | null;
  lastEventAt: number | null;
  events: number;
  turns: number;
  calls: number;
  /** Every model the calls used (`provider/model`), in order of first use. */
  models: string[];
  /** Provider-reported usage summed over the calls, and per model (what a price table multiplies). */
  tokens: { in: number; out: number; cacheReads: number };
  modelUse: ModelUse[];
  /** Always null here: the page prices `modelUse` from the user's price table (core/charts/prices.ts `sessionCost`). */
  cost: number | null;
  compactions: number;
  findings: { errors: number; warnings: number; infos: number };
  /** False when DSH would refuse to restore the log. */
  ok: boolean;
  verdict: VerdictKind;
  verdictSummary: string;
  /** How the last turn ended (turn/end reason kind, or `open`). */
  lastTurn: { turn: number; outcome: string } | null;
  parentSession: string | null;
  /** A fork child: it inherited its parent's events (header seedLength or isSeeded). */
  fork: boolean;
  tornTail: boolean;
}

export interface SummaryOptions {
  file: string;
  size: number;
  cancelled?: () => boolean;
  /** Between chunks (a worker answers its messages meanwhile). */
  pause?: () => Promise<void> | null;
}

/**
 * A log's summary in one streaming pass: the reader keeps no bytes and no
 * events, the fold looks back only at what is on the surface
 * (SurfaceEvents), and the counts ride on the fold's walk. A file whose
 * first line is not a session header stops after its first chunk. `open`
 * gives the log's bytes from the start; a second pass is read only when the
 * first could not answer a look-back.
 */
export async function summarizeLog(open: () => ByteSource, options: SummaryOptions): Promise<LogSummary> {
  const first = await summaryPass(open(), options, false);
  if (!first.missed) return first.summary;
  // The fold looked back at an event the pass had let go (or one that never was): read the log
  // again keeping every event, so the findings are exactly the full load's. Rare: a broken reference.
  return (await summaryPass(open(), options, true)).summary;
}

async function summaryPass(source: ByteSource, options: SummaryOptions, keepAll: boolean): Promise<{ summary: LogSummary; missed: boolean }> {
  let loader: SessionLoader | null = null;
  const lookup = new SurfaceEvents(() => (loader ? loader.state.nodes : []), keepAll);
  const rider = new SummaryRider();
  const types = new Set<string>();
  let events = 0;
  let lastEventAt: number | null = null;
  const start = (meta: LogMeta) => (loader = new SessionLoader(meta, { eventAt: lookup.at, riders: [rider] }));
  const read = await readLog(source, {
    retainEvents: false,
    lines: new LineStore(false),
    pause: options.pause,
    cancelled: (reader) => options.cancelled?.() === true || (reader.lineCount > 0 && reader.sessionHeader === null),
    onEvent({ event }, reader) {
      events++;
      types.add(event.type);
      lastEventAt = event.time;
      lookup.add(event);
      (loader ?? start({ header: reader.sessionHeader, version: reader.formatVersion, dialect: reader.logDialect })).push(event);
    },
    onRun(run, _line, _start, _end, reader) {
      events += run.pieces.length;
      types.add('assistant/chunk');
      lastEventAt = run.times[run.pieces.length - 1];
      (loader ?? start({ header: reader.sessionHeader, version: reader.formatVersion, dialect: reader.logDialect })).pushRun(run);
    },
  });
  const l: SessionLoader = loader ?? start({ header: read.header, version: read.version, dialect: read.dialect });
  l.restore((event) => lookup.add(event));
  const diagnostics: Diagnostic[] = [...read.diagnostics, ...l.diagnostics];
  const verdict = logVerdict({ header: read.header, version: read.version, diagnostics, types });
  const header = read.header;
  const isLog = verdict.kind !== 'not-dsh';
  const modelUse = rider.calls.finish(header);
  const tokens = { in: 0, out: 0, cacheReads: 0 };
  for (const m of modelUse) { tokens.in += m.tokensIn; tokens.out += m.tokensOut; tokens.cacheReads += m.cacheReads; }
  const count = (severity: Diagnostic['severity']) => diagnostics.filter((d) => d.severity === severity).length;
  const summary: LogSummary = {
    file: options.file,
    size: options.size,
    isLog,
    notLog: isLog ? null : verdict.summary,
    id: typeof header?.id === 'string' ? header.id : null,
    title: rider.title,
    format: isLog ? read.version : null,
    encoding: read.scan.encoding,
    createdAt: typeof header?.createdAt === 'number' ? header.createdAt : null,
    lastEventAt,
    events,
    turns: rider.turns,
    calls: modelUse.reduce((n, m) => n + m.calls, 0),
    models: modelUse.map((m) => m.model),
    tokens,
    modelUse,
    cost: null,
    compactions: rider.compactions,
    findings: { errors: count('error'), warnings: count('warning'), infos: count('info') },
    ok: firstRefusal(diagnostics) === undefined,
    verdict: verdict.kind,
    verdictSummary: verdict.summary,
    lastTurn: rider.lastTurnOutcome,
    parentSession: typeof header?.parentSession === 'string' ? header.parentSession : null,
    fork: header ? childRefOf(header).forked : false,
    tornTail: read.tornTail !== null,
  };
  return { summary, missed: lookup.missed };
}
