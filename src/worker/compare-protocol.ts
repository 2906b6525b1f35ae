import type { CompareReport } from '../core/compare/compare.ts';
import type { PairExplanation } from '../core/compare/explain.ts';
import type { ContextComparisonAt, PairedNode, UnitComparison } from '../core/compare/side-by-side.ts';
import type { ListWindow, LoadSource } from './protocol.ts';

/**
 * The compare mode's messages (issue #20), beside the single-log protocol:
 * the worker keeps a second log in a compare slot (B) next to the open one
 * (A) and answers queries about the two together. Plain data only.
 */
export type CompareRequest =
  /** Loads B into the compare slot; answers like `load` (a LoadSummary, progress on the way). */
  | { id: number; op: 'compare-load'; source: LoadSource }
  /** Lets B go. */
  | { id: number; op: 'compare-drop' }
  /** Aligns A's and B's calls: a CompareView. */
  | { id: number; op: 'compare'; names: { a: string; b: string } }
  /** The side-by-side panels at A's event `a` and B's event `b`, with the paired-surface rows in `window`: a CompareAt. */
  | { id: number; op: 'compare-at'; a: number; b: number; window?: ListWindow }
  /** One aligned row explained: a RowExplanation. */
  | { id: number; op: 'compare-explain'; row: number };

export const COMPARE_OPS: ReadonlySet<string> = new Set(['compare-load', 'compare-drop', 'compare', 'compare-at', 'compare-explain']);

export function isCompareRequest(msg: unknown): msg is CompareRequest {
  return typeof msg === 'object' && msg !== null && COMPARE_OPS.has((msg as { op?: string }).op ?? '');
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
 * in each answer made 40 MB per cursor step (issue #15).
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
