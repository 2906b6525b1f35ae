import type { CompareReport } from '../core/compare/compare.ts';
import type { PairExplanation } from '../core/compare/explain.ts';
import type { ContextComparisonAt, PairedNode, UnitComparison } from '../core/compare/side-by-side.ts';
import type { LoadSource } from './protocol.ts';

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
  /** The side-by-side panels at A's event `a` and B's event `b`: a CompareAt. */
  | { id: number; op: 'compare-at'; a: number; b: number }
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
  nodes: CompareNodeView[];
  messageCount: number;
}

export interface CompareAt {
  /** null: that side has no log loaded (B failed). */
  a: CompareSideAt | null;
  b: CompareSideAt | null;
  surface: PairedNode[];
  projections: UnitComparison[];
  context: ContextComparisonAt;
}

export interface RowExplanation {
  row: number;
  explanation: PairExplanation | null;
}
