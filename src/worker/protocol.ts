import type { Diagnostic } from '../core/diagnostics/diagnostic.ts';
import type { EventOrigin, LogEvent, ReadResult, SessionHeader } from '../core/log/types.ts';
import type { Message } from '../core/messages/types.ts';
import type { ReplayColumns, NavKind } from '../core/replay/replay-index.ts';
import type { Replacement } from '../core/surface/types.ts';
import type { ProjectionFailure } from '../core/projections/types.ts';

/** Messages between the main thread and the load worker. Plain data only. */
export type LoadSource =
  | { kind: 'file'; file: Blob; name: string }
  | { kind: 'text'; text: string; name: string }
  | { kind: 'url'; url: string; name: string };

export type Request =
  | { id: number; op: 'load'; source: LoadSource }
  | { id: number; op: 'cancel' }
  | { id: number; op: 'rows'; from: number; count: number }
  | { id: number; op: 'event'; index: number }
  | { id: number; op: 'state'; index: number }
  | { id: number; op: 'navigate'; kind: NavKind; from: number; dir: 1 | -1 }
  | { id: number; op: 'search'; text: string; from: number; dir: 1 | -1 };

export interface LoadProgress {
  bytesIn: number;
  totalBytes: number | null;
  events: number;
  phase: 'reading' | 'folding' | 'indexing';
}

export type Response =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: string }
  | { id: number; progress: LoadProgress };

/** What the UI knows about a loaded log without asking again. */
export interface LoadSummary {
  name: string;
  header: SessionHeader | null;
  version: number;
  dialect: string;
  encoding: string;
  /** Logged events plus synthetic (restore-appended) ones. */
  count: number;
  syntheticCount: number;
  lastSeq: number;
  typeCounts: Record<string, number>;
  /** Every finding, with the event index it points at (when it has a seq). */
  diagnostics: (Diagnostic & { index?: number })[];
  tornTail: ReadResult['tornTail'];
  ok: boolean;
  columns: ReplayColumns;
  typeNames: string[];
  families: readonly string[];
  /** Every committed replace of the whole log, for the timeline. */
  replacements: Replacement[];
  turns: number;
  loadMs: number;
  /** Projection units (wire and host-only) with the seqs where each changed. */
  projectionUnits: { key: string; stateVersion: number; hostOnly: boolean; changes: number[]; failure: ProjectionFailure | null }[];
}

export interface ProjectionAtCursor {
  key: string;
  stateVersion: number;
  hostOnly: boolean;
  view: unknown;
  state: unknown;
  /** The unit's watermark at the cursor: the last seq it observed. */
  observedSeq: number;
  changedHere: boolean;
  prevChange: number | null;
  nextChange: number | null;
  /** Set when the unit's fold failed at or before the cursor. */
  failure: ProjectionFailure | null;
}

export interface RowSummary {
  index: number;
  seq: number;
  type: string;
  preview: string;
  synthetic: boolean;
}

export interface EventDetail {
  index: number;
  event: LogEvent;
  origin: EventOrigin | null;
  synthetic: boolean;
  diagnostics: Diagnostic[];
  /** Where the event stands at the end of the log. */
  surfaceStatus: 'node' | 'shadowed' | 'not-a-node';
  shadowedBy?: number;
}

export interface SurfaceNodeView {
  seq: number;
  index: number;
  type: string;
  role: string | null;
  preview: string;
  /** null when the event contributes no wire message (empty content). */
  messageId: string | null;
  projected: boolean;
}

export interface CursorState {
  index: number;
  seq: number;
  nodes: SurfaceNodeView[];
  replaceGeneration: number;
  contentGeneration: number;
  /** Replaces committed up to the cursor, with the shadowed nodes' previews. */
  replacements: (Replacement & { shadowed: SurfaceNodeView[] })[];
  /** What the event at the cursor did to the surface. */
  change: 'append' | 'replace' | 'project' | 'none' | 'reject';
  messages: Message[];
  projections: ProjectionAtCursor[];
}
