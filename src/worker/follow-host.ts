import { FollowSession } from '../core/follow/follow-session.ts';
import { FingerprintTap } from '../core/log/fingerprint.ts';
import type { Engine } from './engine.ts';
import { FOLLOW_OPERATIONS, type FollowAnswers, type FollowRequest, type FollowUpdate } from './follow-protocol.ts';
import { answer, type Post } from './operation-table.ts';
import { loadRiders, type LoadRiders } from './load-riders.ts';
import type { EventStore } from '../core/log/event-store.ts';
import type { SessionFold } from '../core/session/fold-session.ts';
import type { LoadSummary } from './protocol.ts';
import { PAUSE_EVERY_MS, yieldEvery } from './yield-every.ts';
import { firstDifference, WHOLE_LISTS, type ListsFrom, type TailedList } from './list-tails.ts';

interface Followed {
  /** The one load of the followed file: fed each append, never ended until following stops. */
  session: FollowSession;
  /** The analyses riding that load (made once its header line is read). */
  riders: LoadRiders | null;
  /** The file's fingerprint, taken from its bytes as they arrive (as a load of the whole file takes it). */
  tap: FingerprintTap;
  name: string;
  /** Committed events when the open log was last refreshed. */
  folded: number;
  /** Rows the page was sent (it holds them): a refresh sends the rows after. */
  sent: number;
  /** The findings and snapshot rows the page was sent last: a refresh sends them from the first that differs. */
  sentLists: Pick<LoadSummary, TailedList> | null;
  /** Another log was opened (or following began again): nothing this load makes is shown any more. */
  dropped: boolean;
}

/**
 * The follow slot (docs/follow.md): appended bytes go through a FollowSession
 * (the streaming load, not ended) that carries the same analyses as a load
 * of the file (index, surface, requests, projections). When new events
 * committed, the open log is refreshed from what that load made so far,
 * without reading the log again, so a refresh costs what was appended, not
 * the length of the log (a long live session used to be read whole at
 * every refresh). While the file is live its committed part is shown: a
 * line waiting for its newline is pending, and the restore's closers (a
 * turn in progress is not interrupted) and the torn-tail rule wait for
 * following to stop, when the input ends as a file's does.
 */
export class FollowHost implements FollowAnswers {
  private followed: Followed | null = null;
  /** The followed log whose input is being ended (follow-stop), until its last summary is made. */
  private stopping: Followed | null = null;
  /** Breaks in a long read of appended bytes, so the worker answers other messages meanwhile. */
  private readonly pauses = yieldEvery(PAUSE_EVERY_MS);

  constructor(private readonly engine: Engine) {}

  handle(req: FollowRequest, post: Post): Promise<void> {
    return answer(FOLLOW_OPERATIONS, this as FollowAnswers, req, post);
  }

  async append(bytes: Uint8Array, reset: boolean, name: string): Promise<FollowUpdate> {
    if (reset || !this.followed) {
      this.drop();
      this.followed = this.start(name);
    }
    const f = this.followed;
    f.tap.add(bytes);
    const status = await f.session.append(bytes);
    // Another log was opened while a big append was read (the read pauses for the worker's other messages).
    if (f.dropped) throw new Error('cancelled');
    if (status.events === f.folded) return { status, summary: null, from: 0, listsFrom: WHOLE_LISTS };
    const session = f.session.committedFold();
    if (!session) return { status, summary: null, from: 0, listsFrom: WHOLE_LISTS };
    const update = this.open(f, session, true);
    f.folded = status.events;
    return { status, ...update };
  }

  /**
   * The followed log as the open log (`live`: its committed part). A live
   * refresh sends copies of the rows the page does not hold yet (rows are
   * never written again while the file is live), so it costs what was
   * appended; the last one hands over every column.
   */
  private open(f: Followed, session: SessionFold<EventStore>, live: boolean): Omit<FollowUpdate, 'status'> {
    if (!f.riders) throw new Error('the followed file holds no session header yet');
    const { summary, requestsFrom } = this.engine.openFollowed(f.name, session, f.riders, f.tap.value(), live);
    const from = live ? f.sent : 0;
    const columns = live ? this.engine.columnsSince(from) : this.engine.handOverColumns();
    f.sent = summary.count;
    const sentLists = live ? f.sentLists : null;
    const listsFrom: ListsFrom = {
      requests: requestsFrom,
      diagnostics: sentLists ? firstDifference(sentLists.diagnostics, summary.diagnostics) : 0,
      contextSnapshots: sentLists ? firstDifference(sentLists.contextSnapshots, summary.contextSnapshots) : 0,
    };
    f.sentLists = live ? { diagnostics: summary.diagnostics, contextSnapshots: summary.contextSnapshots } : null;
    const tails = {
      requests: summary.requests.slice(listsFrom.requests),
      diagnostics: summary.diagnostics.slice(listsFrom.diagnostics),
      contextSnapshots: summary.contextSnapshots.slice(listsFrom.contextSnapshots),
    };
    return { summary: { ...summary, columns, ...tails }, from, listsFrom };
  }

  private start(name: string): Followed {
    const f: Followed = { session: null!, riders: null, tap: new FingerprintTap(), name, folded: -1, sent: 0, sentLists: null, dropped: false };
    f.session = new FollowSession({
      riders: (meta, store) => {
        f.riders = loadRiders(meta, null, store);
        return f.riders.visitors;
      },
      // A big append (the whole file, when following starts) lets the open log answer meanwhile,
      // from the last refresh (a committed fold stays as it was made).
      pause: this.pauses.pause,
    });
    return f;
  }

  /** Another log is opened: following is over, its load stops reading and is let go (the file's lines, the riders' columns). */
  drop(): void {
    for (const f of [this.followed, this.stopping]) {
      if (!f) continue;
      f.dropped = true;
      f.session.cancel();
    }
    this.followed = null;
  }

  /** The input ends: the torn-tail rule and the restore apply as for any file, and the riders finish. */
  async stop(): Promise<FollowUpdate> {
    const f = this.followed;
    this.followed = null;
    if (!f) throw new Error('no log is being followed');
    this.stopping = f;
    try {
      const session = await f.session.stop();
      // A log opened meanwhile (the end of a paused read was awaited) stays the open log.
      if (f.dropped) throw new Error('cancelled');
      return { status: { ...f.session.status(), pending: 0 }, ...this.open(f, session, false) };
    } finally {
      if (this.stopping === f) this.stopping = null;
    }
  }
}
