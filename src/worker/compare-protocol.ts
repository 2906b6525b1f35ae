import type { CompareReport } from '../core/compare/compare.ts';
import type { PairExplanation } from '../core/compare/explain.ts';
import type { ContextComparisonAt, PairedNode, UnitComparison } from '../core/compare/side-by-side.ts';
import { operation, type ClientOf, type RequestOf } from './operation-table.ts';
import { loadProgressTransfer } from './operations.ts';
import type { ListWindow, LoadProgress, LoadSource, LoadSummary } from './protocol.ts';
import { summaryFromWire, summaryToWire } from './request-rows-wire.ts';

/** What the compare slot answers (compare-host.ts). */
export interface CompareAnswers {
  /** Loads B into the compare slot (answered like `load`, progress on the way). */
  load(source: LoadSource, onProgress: (p: LoadProgress) => void): Promise<LoadSummary>;
  /** Lets B go. */
  drop(): null;
  /** Aligns A's and B's calls. */
  compare(names: { a: string; b: string }): CompareView;
  /** The side-by-side panels at A's event `a` and B's event `b`, with the paired-surface rows in `window`. */
  at(a: number, b: number, window?: ListWindow): CompareAt;
  /** One aligned row explained. */
  explain(row: number): RowExplanation;
}

const op = operation<CompareAnswers>();

/**
 * The compare mode's operations, beside the single-log table: the worker
 * keeps a second log in a compare slot (B) next to the open one (A) and
 * answers queries about the two together. Plain data only.
 */
export const COMPARE_OPERATIONS = {
  'compare-load': op({
    params: ['source'],
    progress: true,
    run: (host: CompareAnswers, source: LoadSource, onProgress: (p: LoadProgress) => void) => host.load(source, onProgress),
    encode: summaryToWire,
    decode: summaryFromWire,
    progressTransfer: loadProgressTransfer,
  }),
  'compare-drop': op({ params: [], run: (host) => host.drop() }),
  compare: op({ params: ['names'], run: (host, names: { a: string; b: string }) => host.compare(names) }),
  'compare-at': op({ params: ['a', 'b', 'window'], run: (host, a: number, b: number, window?: ListWindow) => host.at(a, b, window) }),
  'compare-explain': op({ params: ['row'], run: (host, row: number) => host.explain(row) }),
};

export type CompareRequest = RequestOf<typeof COMPARE_OPERATIONS>;
/** Compare-mode calls over the app's one worker connection. */
export type CompareClient = ClientOf<typeof COMPARE_OPERATIONS>;

export function isCompareRequest(msg: unknown): msg is CompareRequest {
  return typeof msg === 'object' && msg !== null && Object.hasOwn(COMPARE_OPERATIONS, (msg as { op?: string }).op ?? '');
}

export interface CompareView {
  report: CompareReport;
  /** Why B could not be loaded (then B has no calls and the report says so), or null. */
  failedB: string | null;
}

/** A surface node as the compare panel shows it. */
export interface CompareNodeView {
  seq: number;
  /** Event index in its log. */
  index: number;
  type: string;
  role: string | null;
  preview: string;
  messageId: string | null;
  /** Hash of the message without its id (null: no message). */
  content: string | null;
  projected: boolean;
}

export interface CompareSideAt {
  index: number;
  seq: number;
  nodeCount: number;
  messageCount: number;
}

/** A row of the paired surfaces with the nodes it shows (positions as in PairedNode). */
export interface CompareNodePair extends PairedNode {
  na: CompareNodeView | null;
  nb: CompareNodeView | null;
}

/**
 * The two surfaces paired, a window of rows at a time: at the end of a long
 * session each side has tens of thousands of nodes, and every node of both
 * in each answer made 40 MB per cursor step.
 */
export interface PairedSurfaces {
  /** Rows in all: every node of each side is in exactly one. */
  count: number;
  /** Rows that pair the same message. */
  same: number;
  /** The first row in `pairs`. */
  from: number;
  pairs: CompareNodePair[];
}

export interface CompareAt {
  /** null: that side has no log loaded (B failed). */
  a: CompareSideAt | null;
  b: CompareSideAt | null;
  surface: PairedSurfaces;
  projections: UnitComparison[];
  context: ContextComparisonAt;
}

export interface RowExplanation {
  row: number;
  explanation: PairExplanation | null;
}
