// Section ids (J…) are those of docs/dsh-log-rules.md.
import type { z } from 'zod';
import type { LogEvent, SessionHeader } from '../log/types.ts';

/**
 * The projection unit contract (J1.1, seed shape; the
 * rc.8 shape is the same minus `init` arguments and `stateSchema`).
 * `apply` must be pure and return the *same reference* for events it does
 * not care about (J1.2 item 2): the registry gates all downstream work on
 * `Object.is`.
 */
export interface ProjectionUnit<S = unknown, V = unknown> {
  key: string;
  /** Persisted-cache invalidation version (J1.2 item 4). */
  stateVersion: number;
  /** Validates persisted state before it seeds a fold (J3.4, J3.5). */
  stateSchema: z.ZodType<unknown>;
  /** Validates the client-visible view (J2.5); absent for host-only units. */
  viewSchema?: z.ZodType<unknown>;
  /** Host-only units fold and checkpoint but never appear in snapshots (J0). */
  hostOnly?: boolean;
  init(header: SessionHeader | null, inheritedEventCount: number): S;
  apply(state: S, event: LogEvent): S;
  /** State → whole client value; host-only units return the state for display. */
  view(state: S): V;
  /**
   * Event types this unit reads; undefined = any (subagentTiming). For the
   * purity audit (J5.3.5), and a promise the streaming load relies on: on
   * any other event `apply` returns the state unchanged, so a packed run of
   * chunk deltas only moves the watermark of a unit that does not list
   * assistant/chunk (a test holds every unit to it).
   */
  reads?: readonly string[];
  /**
   * Kinds this unit reads on top of `reads` in the current state: 'all'
   * (an armed shadow-price claim is disarmed by any next event; an open
   * subagent interval is extended by every event), a list (sessionStats
   * reads chunk deltas only until a step's first token), or null. A kind is
   * an event type, or `assistant/chunk:<chunk type>` for one kind of chunk
   * (reads.ts). The same promise as `reads` holds for every other kind.
   */
  alsoReads?(state: S): 'all' | readonly string[] | null;
  /** A domain failure kept in state rather than thrown (seed goal `failure`, J4.2). */
  failureOf?(state: S): string | null;
}

/** Type-erased unit the registry drives. */
export type AnyUnit = ProjectionUnit<any, any>;

/** A unit whose fold threw: the seq and the message; the unit is frozen from there (J2.7, J5.2). */
export interface ProjectionFailure {
  seq: number;
  message: string;
  /**
   * `threw`: the fold threw and the unit stopped there; `domain`: the unit
   * recorded the failure in its state and keeps folding (goal v6); `schema`:
   * the view failed its schema at read time.
   */
  kind: 'threw' | 'domain' | 'schema';
}

/** Persisted cache row (J3.1): unit version, watermark, detached state. */
export interface CheckpointRow {
  ver: number;
  seq: number;
  val: unknown;
}
export type ProjectionCheckpoint = Record<string, CheckpointRow>;

/** One consistent cut (J2.5): `asOfSeq` = last event seq, -1 for an empty log. */
export interface ProjectionSnapshot {
  asOfSeq: number;
  values: Record<string, unknown>;
  /** Units that failed (thrown fold or domain failure); their value is the last good view. */
  failures?: Record<string, ProjectionFailure>;
}

/** One change-feed frame (J2.6): `{type:'session/projection', key, value, seq}` minus the envelope. */
export interface ProjectionChange {
  key: string;
  value: unknown;
  seq: number;
}

/** A purity-audit finding (J5.3.5). */
export interface PurityFinding {
  key: string;
  seq: number;
  kind: 'equal-new-reference' | 'not-plain-json';
  /** True when the unit does not declare the event type it answered with a new state. */
  ignoredEvent: boolean;
  message: string;
}

/** The fold rules a dialect implies: rc.8 for V0–V2 logs, the seed generation for V3+ (J0). */
export type Generation = 'rc8' | 'seed';
