import { countAtOrBelow } from '../../core/util/sorted.ts';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { useView } from '../../store/view.ts';

/**
 * The first model call whose request was built after event `index` (-1:
 * none): the call's context is the surface before its cut, so a change at
 * `index` is first seen by the call with the lowest cut index above it. A
 * binary search over the calls' cuts (ascending), never a scan.
 */
export function nextCallAfter(callCuts: Int32Array, index: number): number {
  const k = callAtOrBefore(callCuts, index) + 1;
  return k < callCuts.length ? k : -1;
}

/** The last call whose cut is at or before event `index` (-1: none). */
export function callAtOrBefore(callCuts: Int32Array, index: number): number {
  return countAtOrBelow(callCuts, index) - 1;
}

/** Opens a call: the Requests tab, the cursor on its cut (where the panel selects it). */
export function openCall(cutIndex: number): void {
  useView.getState().setSideTab('requests');
  useCursor.getState().seek(cutIndex);
}

/** "seen by call N": a link from a change (surface or projection) at event `index` to the next model call that was sent it. */
export function SeenByCall({ index, what = 'this change' }: { index: number; what?: string }) {
  const summary = useSession((s) => s.summary);
  if (!summary) return null;
  const call = nextCallAfter(summary.callCuts, index);
  if (call < 0) return <span className="muted seen-by">no model call after {what}</span>;
  const cutIndex = summary.callCuts[call];
  const cut = summary.columns.seq[cutIndex];
  return (
    <button className="link seen-by" onClick={() => openCall(cutIndex)} title={`The first model call built after ${what}: its request carries it (cut seq ${cut})`}>
      seen by call {call + 1} (cut seq {cut}) →
    </button>
  );
}
