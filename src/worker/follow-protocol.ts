import type { FollowStatus } from '../core/follow/follow-session.ts';
import type { LoadSummary } from './protocol.ts';
import { summaryToWire, type WireSummary } from './request-rows-wire.ts';
import { operation, type ClientOf, type RequestOf } from './operation-table.ts';
import type { ListsFrom } from './list-tails.ts';

/** What the follow slot answers (follow-host.ts). */
export interface FollowAnswers {
  /** Bytes appended to the followed file (`reset`: they start it again from byte 0, a new follow or a file re-opened). */
  append(bytes: Uint8Array, reset: boolean, name: string): Promise<FollowUpdate>;
  /** Following stops: the input ends (the torn-tail rule and the restore apply). */
  stop(): Promise<FollowUpdate>;
}

const op = operation<FollowAnswers>();

/** An update as posted: its summary's columns and Requests rows packed and transferred. */
function updateToWire(update: FollowUpdate): { wire: FollowUpdateOnWire; transfer: Transferable[] } {
  const packed = update.summary ? summaryToWire(update.summary) : null;
  return { wire: { ...update, summary: packed?.wire ?? null }, transfer: packed?.transfer ?? [] };
}

/**
 * Following a log as it grows, beside the single-log table: the page reads
 * the bytes appended to the file (a file handle, HTTP Range) and hands them
 * to the worker, which reads them into the open log. The page keeps each
 * update as posted (summaryFromWire reads it when it is shown).
 */
export const FOLLOW_OPERATIONS = {
  'follow-append': op({
    params: ['bytes', 'reset', 'name'],
    run: (host: FollowAnswers, bytes: Uint8Array, reset: boolean, name: string) => host.append(bytes, reset, name),
    encode: updateToWire,
    decode: (wire: FollowUpdateOnWire) => wire,
  }),
  'follow-stop': op({ params: [], run: (host: FollowAnswers) => host.stop(), encode: updateToWire, decode: (wire: FollowUpdateOnWire) => wire }),
};

export type FollowRequest = RequestOf<typeof FOLLOW_OPERATIONS>;
export type FollowClient = ClientOf<typeof FOLLOW_OPERATIONS>;

export function isFollowRequest(msg: unknown): msg is FollowRequest {
  return typeof msg === 'object' && msg !== null && Object.hasOwn(FOLLOW_OPERATIONS, (msg as { op?: string }).op ?? '');
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
