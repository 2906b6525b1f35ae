import type { DiagnosticCode } from '../diagnostics/diagnostic.ts';
import type { Dialect, LogEvent } from '../log/types.ts';
import type { Message } from '../messages/types.ts';

/** One committed replace, kept for the timeline's replace spans (dsh-log-rules L5). */
export interface Replacement {
  seq: number;
  /** Endpoint identities as logged. */
  start: number;
  end: number;
  shadowedSeqs: number[];
  /** Surface index where the replacing node was inserted. */
  index: number;
}

/**
 * The folded surface after some prefix of the log (L4–L5). Mutated only
 * by applySurfacePlan; clone it (cloneSurface) to keep a checkpoint.
 */
export interface SurfaceState {
  /** Ordered node seqs: the events that become model messages. */
  nodes: number[];
  /** Seq the next event must carry. */
  nextSeq: number;
  replaceGeneration: number;
  /** V4: +1 per replace and per message projection. */
  contentGeneration: number;
  /** V4 message projections: seq → rewritten message (same id). */
  projected: Map<number, Message>;
  replacements: Replacement[];
}

/** What the fold needs to know besides the state: the dialect and earlier events. */
export interface SurfaceContext {
  dialect: Dialect;
  eventAt(seq: number): LogEvent | undefined;
}

/** The outcome of planning one event against the current surface (L4.9). */
export type SurfacePlan =
  | { kind: 'append'; seq: number }
  | { kind: 'replace'; seq: number; start: number; end: number; startIndex: number; endIndex: number; shadowed: number[] }
  | { kind: 'project'; seq: number; messages: Map<number, Message> }
  | { kind: 'none'; seq: number }
  | { kind: 'reject'; seq: number; code: DiagnosticCode; message: string };

export function emptySurface(): SurfaceState {
  return { nodes: [], nextSeq: 0, replaceGeneration: 0, contentGeneration: 0, projected: new Map(), replacements: [] };
}

export function cloneSurface(s: SurfaceState): SurfaceState {
  return {
    nodes: s.nodes.slice(),
    nextSeq: s.nextSeq,
    replaceGeneration: s.replaceGeneration,
    contentGeneration: s.contentGeneration,
    projected: new Map(s.projected),
    replacements: s.replacements.slice(),
  };
}
