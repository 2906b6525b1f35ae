import type { SessionHeader } from '../core/log/types.ts';
import type { AdmissionFlags } from '../core/prompt/admission.ts';
import type { NavKind } from '../core/replay/replay-index.ts';
import type { PackedLog } from '../core/share/pack-log.ts';
import type { OpenLog } from './open-log/open-log.ts';
import { operation, type ClientOf, type MethodsOf, type RequestOf } from './operation-table.ts';
import type { CursorQuery, ExportWhat, ListWindow, LoadProgress, LoadSource, LoadSummary, SearchProgress } from './protocol.ts';
import { summaryFromWire, summaryToWire } from './request-rows-wire.ts';
import type { EventsReader } from './services/events.ts';

/** What the operations of the load worker run against: the worker's engine (engine.ts). */
export interface LogHost {
  /** The open log; throws when none is. */
  openLog(): OpenLog;
  /** The open log, or null. */
  current(): OpenLog | null;
  /** The events of the log being read while one is, else the open log's. */
  eventsReader(): EventsReader;
  /** Loads a log for the page; its columns are handed over (transferred), and with `keepsRows` only the rows progress has not brought. */
  loadForPage(source: LoadSource, memoryBudget: number | undefined, keepsRows: boolean | undefined, onProgress: (p: LoadProgress) => void): Promise<LoadSummary>;
  /** Stops the running load. */
  cancel(): void;
  /** The session header of a source, read from its first lines. */
  peek(source: LoadSource): Promise<SessionHeader | null>;
  /** The log of `source` redacted (unless `redact` is false) and gzipped, to travel in a link or a single file. */
  pack(source: LoadSource, redact: boolean): Promise<PackedLog>;
}

const op = operation<LogHost>();

/** A load's progress report hands over the columns of the rows it brings. */
export function loadProgressTransfer(p: LoadProgress): Transferable[] | undefined {
  return p.rows ? Object.values(p.rows.columns).map((c) => c.buffer as ArrayBuffer) : undefined;
}

/**
 * Every question the page asks the load worker, declared once: the request
 * fields by name, the handler (a service of the open log, see open-log.ts),
 * and whether it may be asked while a log loads (only the events list,
 * timeline and inspector show a log still loading). The client
 * (client.ts), the worker's dispatch and the engine's methods are derived
 * from this table (operation-table.ts). The page's bundle imports it too, so
 * a handler names only types and the host's methods: the work lives in the
 * worker's modules.
 */
export const OPERATIONS = {
  load: op({
    params: ['source', 'memoryBudget', 'keepsRows'],
    progress: true,
    whileLoading: true,
    run: (host: LogHost, source: LoadSource, memoryBudget: number | undefined, keepsRows: boolean | undefined, onProgress: (p: LoadProgress) => void) => host.loadForPage(source, memoryBudget, keepsRows, onProgress),
    // The columns and the Requests rows travel as transferred buffers (request-rows-wire.ts).
    encode: summaryToWire,
    decode: summaryFromWire,
    progressTransfer: loadProgressTransfer,
  }),
  cancel: op({ params: [], whileLoading: true, run: (host) => { host.cancel(); return null; } }),
  peek: op({ params: ['source'], whileLoading: true, run: (host, source: LoadSource) => host.peek(source) }),
  rows: op({ params: ['from', 'count'], whileLoading: true, run: (host, from: number, count: number) => host.eventsReader().rows(from, count) }),
  event: op({ params: ['index'], whileLoading: true, run: (host, index: number) => host.eventsReader().event(index) }),
  /** One streamed output (a run of chunk events from…to-1) in a line. */
  stream: op({ params: ['from', 'to'], whileLoading: true, run: (host, from: number, to: number) => host.eventsReader().stream(from, to) }),
  spawns: op({ params: [], run: (host) => host.openLog().events.spawns() }),
  state: op({ params: ['query'], run: (host, query: CursorQuery) => host.openLog().cursor.state(query) }),
  messages: op({ params: ['index', 'window'], run: (host, index: number, window: ListWindow) => host.openLog().cursor.messages(index, window) }),
  span: op({ params: ['index', 'seq'], run: (host, index: number, seq: number) => host.openLog().cursor.span(index, seq) }),
  navigate: op({ params: ['kind', 'from', 'dir'], run: (host, kind: NavKind, from: number, dir: 1 | -1) => host.openLog().cursor.navigate(kind, from, dir) }),
  search: op({ params: ['text', 'from', 'dir'], run: (host, text: string, from: number, dir: 1 | -1) => host.openLog().search.search(text, from, dir) }),
  /** Every event matching a content query (core/search/query.ts), with progress; a newer one or cancelSearch stops it. */
  searchAll: op({ params: ['text'], progress: true, run: (host, text: string, onProgress?: (p: SearchProgress) => void) => host.openLog().search.searchAll(text, onProgress) }),
  cancelSearch: op({ params: [], run: (host) => { host.current()?.search.cancel(); return null; } }),
  projections: op({ params: ['index'], run: (host, index: number) => host.openLog().units.projectionsAtIndex(index) }),
  prompt: op({ params: ['index'], run: (host, index: number) => host.openLog().prompt.prompt(index) }),
  context: op({ params: ['a', 'b'], run: (host, a: number | null, b: number) => host.openLog().prompt.context(a, b) }),
  admit: op({ params: ['index', 'text', 'flags'], run: (host, index: number, text: string, flags: AdmissionFlags) => host.openLog().prompt.admit(index, text, flags) }),
  request: op({ params: ['index', 'window'], run: (host, index: number, window?: ListWindow) => host.openLog().calls.request(index, window) }),
  requestJson: op({ params: ['index'], run: (host, index: number) => host.openLog().calls.requestJson(index) }),
  /** A call's provider request body and cURL command (core/requests/wire.ts). */
  requestCopy: op({ params: ['index'], run: (host, index: number) => host.openLog().calls.providerCopy(index) }),
  /** The charts' data; `calls: false` leaves out each call's figures (the page has them in the request rows). */
  charts: op({ params: ['calls'], run: (host, calls?: boolean) => host.openLog().charts.charts(calls) }),
  export: op({ params: ['what', 'format', 'index', 'redact'], run: (host, what: ExportWhat, format: 'json' | 'markdown', index: number, redact: boolean) => host.openLog().exports.export(what, format, index, redact) }),
  /** The session as OTLP/JSON lines (core/otlp/), content only when asked, redacted unless asked not to. */
  exportOtlp: op({ params: ['content', 'redact'], run: (host, content: boolean, redact: boolean) => host.openLog().exports.otlp(content, redact) }),
  /** The log of `source` redacted (unless not asked) and gzipped, to travel in a link or a single file. */
  pack: op({ params: ['source', 'redact'], run: (host, source: LoadSource, redact: boolean) => host.pack(source, redact) }),
};

export type LogOperations = typeof OPERATIONS;
/** A request to the load worker, as posted. */
export type Request = RequestOf<LogOperations>;
/** The page's calls into the load worker. */
export type LogClient = ClientOf<LogOperations>;
/**
 * The operations the engine has methods of its own for: those the host
 * answers (LogHost), and `projections`, which in process is
 * `projectionsAtIndex` (the engine's `projections` is the open log's units).
 */
const HOST_OPS = ['load', 'cancel', 'peek', 'pack', 'projections'] as const;
type HostOp = (typeof HOST_OPS)[number];
/** The other operations, which an in-process caller runs on the engine directly (`engine.state(query)`). */
export type EngineQueries = Omit<MethodsOf<LogOperations>, HostOp>;
export const ENGINE_QUERIES = (Object.keys(OPERATIONS) as (keyof LogOperations)[]).filter((k): k is Exclude<keyof LogOperations, HostOp> => !(HOST_OPS as readonly string[]).includes(k));
