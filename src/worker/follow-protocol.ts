import type { FollowStatus } from '../core/follow/follow-session.ts';
import type { LoadSummary } from './protocol.ts';
import type { WireSummary } from './request-rows-wire.ts';
import type { ListsFrom } from './list-tails.ts';

/**
 * Following a log as it grows (issue #21), beside the single-log protocol:
 * the page reads the bytes appended to the file (a file handle, HTTP Range)
 * and hands them to the worker, which reads them into the open log.
 */
export type FollowRequest =
  /**
   * Bytes appended to the followed file (`reset`: they start it again from
   * byte 0, a new follow or a file re-opened). Answers a FollowUpdate.
   */
  | { id: number; op: 'follow-append'; bytes: Uint8Array; reset: boolean; name: string }
  /** Following stops: the input ends (the torn-tail rule and the restore apply). Answers a FollowUpdate. */
  | { id: number; op: 'follow-stop' };

export const FOLLOW_OPS: ReadonlySet<string> = new Set(['follow-append', 'follow-stop']);

export function isFollowRequest(msg: unknown): msg is FollowRequest {
  return typeof msg === 'object' && msg !== null && FOLLOW_OPS.has((msg as { op?: string }).op ?? '');
}

export interface FollowUpdate {
  status: FollowStatus;
  /**
   * The open log with the new events, or null when nothing new was committed.
   * Its columns hold the rows from `from` on: the page holds the ones before,
   * from the follow's earlier updates (0: every row, as the first update and
   * the one that stops following send).
   */
  summary: LoadSummary | null;
  from: number;
  /**
   * Its Requests rows, findings and runtime-context snapshot rows are those
   * from these positions on: the entries before are the follow's last
   * update's (0: the whole list).
   */
  listsFrom: ListsFrom;
}

/** A FollowUpdate as the worker posts it: the summary's columns and Requests rows packed and transferred (summaryFromWire reads it). */
export type FollowUpdateOnWire = Omit<FollowUpdate, 'summary'> & { summary: WireSummary | null };
