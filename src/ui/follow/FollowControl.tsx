import './follow.css';
import { useEffect, useRef } from 'react';
import { useSession } from '../../store/session.ts';
import { useView } from '../../store/view.ts';
import { openLogs } from '../../store/open-logs.ts';
import { useFollow } from './follow-store.ts';

/** Bytes as a short size. */
const size = (n: number) => (n < 1024 ? `${n} B` : n < 1 << 20 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / (1 << 20)).toFixed(1)} MiB`);

/** `?url=…&follow=1`: follow the URL's log once it has loaded (once per page). */
function useFollowFromQuery(): void {
  useEffect(() => {
    if (new URLSearchParams(location.search).get('follow') !== '1') return;
    const begin = () => {
      const s = useSession.getState();
      if (s.status !== 'ready' || s.workspace[s.active]?.source.kind !== 'url') return false;
      useFollow.getState().start();
      return true;
    };
    if (begin()) return;
    const stop = useSession.subscribe((s, prev) => { if (s.loads !== prev.loads && begin()) stop(); });
    return stop;
  }, []);
}

/**
 * The toolbar's Follow toggle (docs/follow.md): on, the open log is read again
 * as it grows (a file through its handle, a URL with Range requests); off,
 * the input ends. It shows the bytes still pending, findings that arrived,
 * and why following is not possible when it is not.
 */
export function FollowControl() {
  useFollowFromQuery();
  // Another log opened: a note about the previous one (why it could not be followed) goes.
  useEffect(() => useSession.subscribe((s, prev) => {
    if (s.loads !== prev.loads && useFollow.getState().status !== 'on') useFollow.setState({ status: 'off', note: null });
  }), []);
  const summary = useSession((s) => s.summary);
  const sourceKind = useSession((s) => s.workspace[s.active]?.source.kind);
  const { status, note, pending, newFindings } = useFollow();
  const reopen = useRef<HTMLInputElement>(null);
  if (!summary || summary.partial) return null;
  const on = status === 'on';
  return (
    <span className="follow-control" role="group" aria-label="Follow">
      <button aria-pressed={on} className={on ? 'follow-on' : undefined} onClick={() => void (on ? useFollow.getState().stop() : useFollow.getState().start())}
        title={on ? 'Following: the log as written so far, a turn still running shown running. Stop: the log is read to its end as it is now, and the restore\'s closers apply' : 'Follow the log as it is written (like tail -f): new events slide in while the cursor is at the end'}>
        {on ? '● Following' : 'Follow'}
      </button>
      {on && pending > 0 && <span className="muted follow-pending" title="Bytes of a line still waiting for its newline (or rows a later turn/end may commit): pending, not torn">{size(pending)} pending</span>}
      {on && newFindings > 0 && (
        <button className="badge warn follow-findings" aria-label={`${newFindings} new findings`} title="Findings that arrived while following: open Diagnostics" onClick={() => useView.getState().setSideTab('diagnostics')}>+{newFindings} finding{newFindings === 1 ? '' : 's'}</button>
      )}
      {note && (
        <span className={`follow-note ${status === 'on' ? 'muted' : 'warn-text'}`} role="status">
          {note}
          {status === 'unavailable' && sourceKind === 'file' && (
            <>
              {' '}<button className="linkish" onClick={() => reopen.current?.click()}>Re-open…</button>
              <input ref={reopen} type="file" hidden aria-label="Re-open log" onChange={(e) => { const files = [...(e.target.files ?? [])]; if (files.length) void openLogs(files.map((f) => ({ kind: 'file' as const, file: f, name: f.name }))); e.target.value = ''; }} />
            </>
          )}
        </span>
      )}
    </span>
  );
}
