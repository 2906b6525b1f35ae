import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';
import { LoadStopped } from './load-stopped.ts';
import type { ReadProgress } from './reader.ts';

/**
 * Will this log fit? A load keeps the decoded bytes of every line it can
 * read (unless it reads them back from the file) plus a few typed numbers and analysis state per event; `npm run
 * bench` measures the worker's peak at about the decoded size plus 160
 * bytes per event (1.23 M events, 160 MB decoded: 356 MB). The estimate
 * projects that from the file's size and what the load has seen so far
 * (compression ratio, bytes kept, events per byte), so a log that will not
 * fit is stopped early, before the tab runs out of memory.
 */
export const HELD_BYTES_PER_EVENT = 160;
/** Events per decoded byte assumed before any are seen (rc.8 logs run ~60 bytes per event). */
const EVENTS_PER_BYTE_GUESS = 1 / 400;
/** The app itself, the previous log's views and the analyses' fixed costs. */
const FIXED_BYTES = 32 * 2 ** 20;
/** Projections wait until this much is decoded (or this share of the file is read): the header alone says little. */
const PROJECT_AFTER_BYTES = 4 * 2 ** 20;
const PROJECT_AFTER_SHARE = 0.02;

export interface LoadEstimate {
  /** Decoded size the log will have (projected; the file size when nothing is known). */
  decodedBytes: number;
  events: number;
  /** Memory the load will need at its peak. */
  neededBytes: number;
}

/**
 * What the load will need: from the file size alone at the start (a
 * compressed file counts as at least its own size), then from the progress.
 * `fileBytes` null: the size is unknown (a download without a length), and
 * only what is already held counts.
 */
export function estimateLoad(fileBytes: number | null, progress: ReadProgress | null): LoadEstimate {
  const seen = progress && progress.decodedBytes > 0 ? progress : null;
  const trusted = seen && (seen.decodedBytes >= PROJECT_AFTER_BYTES || (fileBytes !== null && seen.bytesIn >= fileBytes * PROJECT_AFTER_SHARE));
  let decoded: number;
  let held: number;
  let events: number;
  if (!seen || !trusted) {
    decoded = Math.max(fileBytes ?? 0, seen?.decodedBytes ?? 0);
    held = decoded;
    events = Math.max(decoded * EVENTS_PER_BYTE_GUESS, seen?.events ?? 0);
  } else {
    // Past the first few megabytes the ratios of the part read stand for the whole.
    const ratio = seen.bytesIn > 0 ? seen.decodedBytes / seen.bytesIn : 1;
    decoded = Math.max(seen.decodedBytes, fileBytes === null ? 0 : fileBytes * ratio);
    // A plain file's lines are read back from it: none of its bytes stay.
    held = seen.readBack ? 0 : decoded * (1 - seen.skippedBytes / seen.decodedBytes);
    events = Math.max(seen.events, (decoded * seen.events) / seen.decodedBytes);
  }
  return { decodedBytes: decoded, events: Math.round(events), neededBytes: FIXED_BYTES + held + events * HELD_BYTES_PER_EVENT };
}

/** What the platform says the load may use, and where the figure came from (for the message). */
export interface MemoryBudget {
  bytes: number;
  source: string;
  /** Where the load runs, for the message (default 'this tab'), and what to do instead (default: the CLI). */
  place?: string;
  advice?: string;
}

// A DSH log cannot be cut into smaller valid logs (seqs run on from the header, and the surface folds
// from the start), so the advice is the tools that stream it: the CLI, and a folder's summary table.
const TAB_ADVICE = 'The open log stays as it was. To read this log, use the command line: npm run inspect -- <file> (it streams the file, with no tab limit; dsh-devtools inspect <file> where the command is installed). ' +
  'For the sessions around it, open its folder (Open folder, or dsh-devtools summary <folder>): a summary reads each log in one streaming pass and keeps none of it in memory.';

const GiB = 2 ** 30;
/** A tab with no figure to go by: what a 64-bit browser tab can usually hold. */
export const DEFAULT_BUDGET = 3 * GiB;

/**
 * The budget from what the browser reports: Chromium's JS heap limit less
 * what is in use (the open log stays in memory while the next one loads),
 * and half the device's memory (navigator.deviceMemory, in GiB). An
 * explicit budget (a test hook, or a user who knows better) wins.
 */
export function memoryBudget(platform: { heapLimit?: number; heapUsed?: number; deviceMemoryGiB?: number; override?: number }): MemoryBudget {
  if (platform.override !== undefined && platform.override > 0) return { bytes: platform.override, source: 'the budget set for this page (memoryBudget)' };
  const figures: MemoryBudget[] = [];
  if (platform.heapLimit) figures.push({ bytes: platform.heapLimit - (platform.heapUsed ?? 0), source: 'the browser\'s memory limit for this tab' });
  if (platform.deviceMemoryGiB) figures.push({ bytes: (platform.deviceMemoryGiB * GiB) / 2, source: `half of this device's ${platform.deviceMemoryGiB} GB` });
  if (!figures.length) return { bytes: DEFAULT_BUDGET, source: 'what a browser tab can usually hold' };
  return figures.reduce((a, b) => (b.bytes < a.bytes ? b : a));
}

const size = (n: number) => (n >= GiB ? `${(n / GiB).toFixed(1)} GB` : `${Math.max(1, Math.round(n / 2 ** 20))} MB`);

/** The finding for a log that will not fit: how big it is, what it needs, what to do instead. */
export function tooBigFinding(estimate: LoadEstimate, budget: MemoryBudget, progress: ReadProgress | null): Diagnostic {
  const where = progress && progress.lines > 0 ? { line: progress.lines } : {};
  const stopped = progress && progress.bytesIn > 0 ? `Loading stopped after ${size(progress.decodedBytes)} (${progress.events.toLocaleString('en')} events)` : 'Loading stopped before reading it';
  return diagnostic('load.too-big',
    `the log is too big for ${budget.place ?? 'this tab'}: about ${size(estimate.decodedBytes)} of text and ${Math.round(estimate.events).toLocaleString('en')} events would need about ${size(estimate.neededBytes)} of memory, ` +
    `and ${budget.source} allows about ${size(budget.bytes)}. ${stopped}. ${budget.advice ?? TAB_ADVICE}`,
    where);
}

/**
 * Checks a load against its budget: once before the first byte, then after
 * each chunk (the caller passes the reader's progress). Throws LoadStopped.
 */
export class LoadGuard {
  constructor(private readonly fileBytes: number | null, private readonly budget: MemoryBudget) {}

  check(progress: ReadProgress | null): void {
    const estimate = estimateLoad(this.fileBytes, progress);
    if (estimate.neededBytes > this.budget.bytes) throw new LoadStopped(tooBigFinding(estimate, this.budget, progress));
  }
}
