import type { SearchProgress, SearchResult, ExportResult, ExportWhat, ContextComparison, PromptAtCursor, RequestDetail, CursorQuery, CursorState, EventDetail, ListWindow, LoadProgress, LoadSource, LoadSummary, MessagesAtCursor, ProjectionAtCursor, Request, Response, RowSummary, SurfaceNodeView } from './protocol.ts';
import type { NavKind } from '../core/replay/replay-index.ts';
import type { SessionHeader } from '../core/log/types.ts';
import type { Admission } from '../core/prompt/admission.ts';
import type { SpawnPoint } from '../core/workspace/forks.ts';
import { memoryBudgetFromUrl } from './memory.ts';
import type { PackedLog } from '../core/share/pack-log.ts';
import type { ChartData } from '../core/charts/series.ts';
import type { StreamSummary } from '../core/messages/stream-summary.ts';
import { inlineWorker } from './inline-worker.ts';
import { summaryFromWire, type WireSummary } from './request-rows-wire.ts';

/** Omit that distributes over the request union. */
type RequestBody = Request extends infer R ? (R extends Request ? Omit<R, 'id'> : never) : never;
type Pending = { resolve: (v: any) => void; reject: (e: Error) => void; onProgress?: (p: LoadProgress) => void };
type Target = { postMessage(msg: unknown): void; onmessage: ((e: MessageEvent) => void) | null; terminate?(): void };

/** Promise-based calls into the load worker (or any object that speaks its protocol). */
export class WorkerClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Told when the open file can no longer be read back (it changed on disk after it was opened). */
  onFileLost: ((message: string) => void) | null = null;

  constructor(private readonly target: Target) {
    target.onmessage = (e: MessageEvent<Response>) => {
      const msg = e.data;
      const p = this.pending.get(msg.id);
      if (!p) return;
      if ('progress' in msg) { p.onProgress?.(msg.progress); return; }
      this.pending.delete(msg.id);
      if (msg.lost) this.onFileLost?.(msg.lost);
      if (msg.ok) p.resolve(msg.result);
      else p.reject(Object.assign(new Error(msg.error), msg.finding ? { finding: msg.finding } : {}));
    };
  }

  private call<T>(req: RequestBody, onProgress?: (p: LoadProgress) => void): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      this.target.postMessage({ ...req, id });
    });
  }

  /** `keepsRows`: the caller keeps the rows progress reports bring; the summary's columns may then start after them (`columnsFrom`). */
  load(source: LoadSource, onProgress?: (p: LoadProgress) => void, options: { keepsRows?: boolean } = {}): Promise<LoadSummary> {
    const memoryBudget = memoryBudgetFromUrl(globalThis.location?.search);
    return this.call<WireSummary>({ op: 'load', source, ...(memoryBudget ? { memoryBudget } : {}), ...(options.keepsRows ? { keepsRows: true } : {}) }, onProgress).then(summaryFromWire);
  }
  cancel(): Promise<void> { return this.call({ op: 'cancel' }); }
  peek(source: LoadSource): Promise<SessionHeader | null> { return this.call({ op: 'peek', source }); }
  rows(from: number, count: number): Promise<RowSummary[]> { return this.call({ op: 'rows', from, count }); }
  event(index: number): Promise<EventDetail> { return this.call({ op: 'event', index }); }
  state(query: CursorQuery): Promise<CursorState> { return this.call({ op: 'state', query }); }
  messages(index: number, window: ListWindow): Promise<MessagesAtCursor> { return this.call({ op: 'messages', index, window }); }
  projections(index: number): Promise<ProjectionAtCursor[]> { return this.call({ op: 'projections', index }); }
  span(index: number, seq: number): Promise<SurfaceNodeView[]> { return this.call({ op: 'span', index, seq }); }
  navigate(kind: NavKind, from: number, dir: 1 | -1): Promise<number | null> { return this.call({ op: 'navigate', kind, from, dir }); }
  prompt(index: number): Promise<PromptAtCursor> { return this.call({ op: 'prompt', index }); }
  context(a: number | null, b: number): Promise<ContextComparison> { return this.call({ op: 'context', a, b }); }
  request(index: number, window?: ListWindow): Promise<RequestDetail> { return this.call({ op: 'request', index, ...(window ? { window } : {}) }); }
  requestJson(index: number): Promise<string> { return this.call({ op: 'requestJson', index }); }
  /** `calls: false`: without each call's figures (the page has them in the summary's request rows). */
  charts(options: { calls?: boolean } = {}): Promise<ChartData> { return this.call({ op: 'charts', calls: options.calls }); }
  stream(from: number, to: number): Promise<StreamSummary> { return this.call({ op: 'stream', from, to }); }
  searchAll(text: string, onProgress?: (p: SearchProgress) => void): Promise<SearchResult> { return this.call({ op: 'searchAll', text }, onProgress as ((p: LoadProgress) => void) | undefined); }
  cancelSearch(): Promise<null> { return this.call({ op: 'searchCancel' }); }
  spawns(): Promise<SpawnPoint[]> { return this.call({ op: 'spawns' }); }
  admit(index: number, text: string, inHistory: boolean, startsSeries: boolean): Promise<Admission> { return this.call({ op: 'admit', index, text, inHistory, startsSeries }); }
  export(what: ExportWhat, format: 'json' | 'markdown', index: number, redact: boolean): Promise<ExportResult> { return this.call({ op: 'export', what, format, index, redact }); }
  /** The log of `source` redacted (unless `redact` is false) and gzipped, for a link or a single file. */
  pack(source: LoadSource, redact: boolean): Promise<PackedLog> { return this.call({ op: 'pack', source, redact }); }
  /** A message of another protocol the worker speaks (compare mode, issue #20: src/worker/compare-protocol.ts). */
  send<T>(req: { op: string; [key: string]: unknown }, onProgress?: (p: LoadProgress) => void): Promise<T> { return this.call(req as unknown as RequestBody, onProgress); }
}

let shared: WorkerClient | null = null;

/** A load worker: the single-file app carries the worker's code in the page (issue #22); the built app loads its file. */
const loadWorker = (): Worker => inlineWorker() ?? new Worker(new URL('./load.worker.ts', import.meta.url), { type: 'module' });

/**
 * Cores a load keeps busy besides the helper: the page (it draws the part read
 * so far), the load worker, and the engines' own collector threads. On a
 * 2-core machine a helper only takes turns with them (measured in the perf
 * browser case: no faster), so it starts from 4 cores.
 */
export const HELPER_MIN_CORES = 4;

/** Cores to spare, unless the link says otherwise (`?helper=0` or `?helper=1`: to compare the two loads). */
function helperWanted(): boolean {
  if (typeof MessageChannel !== 'function') return false;
  const asked = new URLSearchParams(globalThis.location?.search ?? '').get('helper');
  if (asked === '0' || asked === '1') return asked === '1';
  return (globalThis.navigator?.hardwareConcurrency ?? 1) >= HELPER_MIN_CORES;
}

/**
 * The app's one load worker, created on first use, with a second copy of it
 * as its projection helper when the machine has cores to spare (issue #15):
 * the two talk over their own channel, the page only introduces them.
 */
export function workerClient(): WorkerClient {
  if (shared) return shared;
  const worker = loadWorker();
  shared = new WorkerClient(worker);
  if (helperWanted()) {
    const helper = loadWorker();
    const channel = new MessageChannel();
    helper.postMessage({ projectorPort: 'serve', port: channel.port1 }, [channel.port1]);
    worker.postMessage({ projectorPort: 'use', port: channel.port2 }, [channel.port2]);
  }
  return shared;
}
