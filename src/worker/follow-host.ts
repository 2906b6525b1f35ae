import { FollowSession } from '../core/follow/follow-session.ts';
import { concatBytes } from '../core/util/bytes.ts';
import { summaryToWire } from './request-rows-wire.ts';
import type { Engine } from './engine.ts';
import type { FollowRequest, FollowUpdate } from './follow-protocol.ts';
import type { LoadSummary } from './protocol.ts';

/** Findings about the end of the input: while the log is live its tail is pending, not torn. */
const END_OF_INPUT = new Set(['tail.torn', 'bytes.torn-frame']);

interface Followed {
  session: FollowSession;
  /** The file's bytes so far, kept whole (the open log is refreshed from them). */
  raw: Uint8Array[];
  name: string;
  /** Committed events when the open log was last refreshed. */
  folded: number;
}

/**
 * The follow slot (issue #21): appended bytes go through a FollowSession
 * (the streaming load, not ended), which says at once how many events
 * committed and what is pending. When new events committed, the open log
 * is refreshed from the file's bytes through the engine's own load, in the
 * background (queries keep reading the open log meanwhile), so every
 * panel — index, surface, requests, projections — is exactly a load of the
 * bytes so far, with the pending tail shown as pending, not torn.
 */
export class FollowHost {
  private followed: Followed | null = null;

  constructor(private readonly engine: Engine) {}

  async handle(req: FollowRequest, post: (msg: unknown, transfer?: Transferable[]) => void): Promise<void> {
    try {
      const update = req.op === 'follow-append' ? await this.append(req.bytes, req.reset, req.name) : await this.stop();
      const packed = update.summary ? summaryToWire(update.summary) : null;
      post({ id: req.id, ok: true, result: { ...update, summary: packed?.wire ?? null } }, packed?.transfer ?? []);
    } catch (err) {
      post({ id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) });
    }
  }

  private async append(bytes: Uint8Array, reset: boolean, name: string): Promise<FollowUpdate> {
    if (reset || !this.followed) {
      void this.followed?.session.stop().catch(() => undefined);
      this.followed = { session: new FollowSession(), raw: [], name, folded: -1 };
    }
    const f = this.followed;
    f.raw.push(bytes);
    const status = await f.session.append(bytes);
    if (status.events === f.folded) return { status, summary: null };
    f.folded = status.events;
    const summary = await this.refresh(f);
    return { status, summary: { ...summary, tornTail: null, diagnostics: summary.diagnostics.filter((d) => !END_OF_INPUT.has(d.code)) } };
  }

  /** The input ends: the last refresh applies the torn-tail rule and the restore as for any file. */
  private async stop(): Promise<FollowUpdate> {
    const f = this.followed;
    this.followed = null;
    if (!f) throw new Error('no log is being followed');
    await f.session.stop().catch(() => undefined);
    const status = { ...f.session.status(), pending: 0 };
    return { status, summary: await this.refresh(f) };
  }

  private async refresh(f: Followed): Promise<LoadSummary> {
    // Another log is being opened: following ends rather than cancel that load.
    if (this.engine.opening) throw new Error('cancelled');
    // One buffer from here on: the next refresh copies only what was appended since.
    const bytes = f.raw.length === 1 ? f.raw[0] : concatBytes(f.raw);
    f.raw = [bytes];
    const summary = await this.engine.load({ kind: 'bytes', bytes, name: f.name }, () => {}, { background: true });
    return { ...summary, columns: this.engine.handOverColumns() };
  }
}
