import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { useView } from '../../store/view.ts';
import type { RequestRow } from '../../worker/protocol.ts';

/**
 * The first model call whose request was built after event `index`: the
 * call's context is the surface before its cut, so a change at `index` is
 * first seen by the call with the lowest cut index above it. A binary search
 * over the calls (sorted by cut), never a scan.
 */
export function nextCallAfter(requests: readonly RequestRow[], index: number): RequestRow | null {
  let lo = 0;
  let hi = requests.length;
  while (lo < hi) { const m = (lo + hi) >> 1; if (requests[m].cutIndex <= index) lo = m + 1; else hi = m; }
  return requests[lo] ?? null;
}

/** The last call whose cut is at or before event `index` (-1: none). */
export function callAtOrBefore(requests: readonly RequestRow[], index: number): number {
  let lo = 0;
  let hi = requests.length;
  while (lo < hi) { const m = (lo + hi) >> 1; if (requests[m].cutIndex <= index) lo = m + 1; else hi = m; }
  return lo - 1;
}

/** Opens a call: the Requests tab, the cursor on its cut (where the panel selects it). */
export function openCall(row: RequestRow): void {
  useView.getState().setSideTab('requests');
  useCursor.getState().seek(row.cutIndex);
}

/** "seen by call N": a link from a change (surface or projection) at event `index` to the next model call that was sent it. */
export function SeenByCall({ index, what = 'this change' }: { index: number; what?: string }) {
  const requests = useSession((s) => s.summary?.requests);
  if (!requests) return null;
  const call = nextCallAfter(requests, index);
  if (!call) return <span className="muted seen-by">no model call after {what}</span>;
  return (
    <button className="link seen-by" onClick={() => openCall(call)} title={`The first model call built after ${what}: its request carries it (cut seq ${call.cut})`}>
      seen by call {call.index + 1} (cut seq {call.cut}) →
    </button>
  );
}
