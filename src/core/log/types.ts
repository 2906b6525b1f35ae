import type { Diagnostic } from '../diagnostics/diagnostic.ts';

/** JSON value as found in a log row. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Replace op: V0–V2 name the endpoints start/end, V3+ startSeq/endSeq (dsh-log-rules L2.1). */
export type ReplaceOp =
  | { op: 'replace'; start: number; end: number }
  | { op: 'replace'; startSeq: number; endSeq: number };
export type SurfaceOp = 'append' | ReplaceOp;

/** One logical event after packed-row expansion and legacy upgrade (L2.1). */
export interface LogEvent {
  type: string;
  seq: number;
  time: number;
  data: any;
  ignorable?: true;
  surfaceOp?: SurfaceOp;
  sourceEventSeqs?: number[];
}

/** The header record, as stored (L1.5). */
export interface SessionHeader {
  type: 'session';
  version?: number;
  id: string;
  createdAt: number;
  delegationDepth?: number;
  cwd?: string;
  parentSession?: string;
  seedLength?: number;
  isSeeded?: boolean;
  origin?: 'subagent';
  agentPreset?: string;
  [key: string]: Json | undefined;
}

/**
 * The rule set a log is read and folded with. `v0` is rc.8 semantics (also
 * V1/V2 physical layouts, which share its surface rules); `v3` adds
 * system/message and startSeq/endSeq; `v4` adds developer messages,
 * contentGeneration and message projections.
 */
export type Dialect = 'v0' | 'v3' | 'v4';

/** Where an event came from in the file, for jumps and diagnostics. */
export interface EventOrigin {
  /** 1-based physical line of the storage record. */
  line: number;
  /** Member index when the record was a packed chunk row. */
  packedIndex?: number;
  /** The row as stored, when the reader upgraded a legacy shape. */
  legacy?: JsonObject;
}

export interface TornTail {
  /** Bytes of decoded text dropped (partial last line and dropped rows). */
  bytes: number;
  /** Complete rows dropped because no later turn/end commits them. */
  rows: number;
  /** The dropped text, kept so nothing the user loaded is lost (a line too long to read is left out: an empty line, or nothing when it is the partial last line). */
  text: string;
}

export interface ScanStats {
  /** Decoded (plaintext) bytes. */
  totalBytes: number;
  /** Bytes of complete, kept lines including the header. */
  committedBytes: number;
  /** Physical lines: the header plus storage records (blank lines excluded). */
  physicalRows: number;
  encoding: 'plain' | 'zstd' | 'gzip';
}

export interface ReadResult {
  header: SessionHeader | null;
  /** Format version from the header (missing → 0). */
  version: number;
  dialect: Dialect;
  events: LogEvent[];
  origins: EventOrigin[];
  diagnostics: Diagnostic[];
  tornTail: TornTail | null;
  scan: ScanStats;
  /**
   * Rows kept aside because they could not be placed (duplicate seq, bad
   * JSON). A line too long to read has no text: `unreadBytes` gives its size.
   */
  rejectedRows: { line: number; text: string; unreadBytes?: number }[];
}

/** A read without its events (a streaming load keeps those in an EventStore). */
export type ReadMeta = Omit<ReadResult, 'events' | 'origins'>;

/** What is known of a log once its header line is read. */
export interface LogMeta {
  header: SessionHeader | null;
  version: number;
  dialect: Dialect;
}
