import { useEffect, useState } from 'react';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import type { CursorState } from '../../worker/protocol.ts';

/** The folded state at the cursor, asked of the worker; the latest request wins. */
export function useCursorState(): CursorState | null {
  const index = useCursor((s) => s.index);
  const summary = useSession((s) => s.summary);
  const client = useSession((s) => s.client);
  const [state, setState] = useState<CursorState | null>(null);
  useEffect(() => {
    if (!client || !summary) { setState(null); return; }
    let live = true;
    client.state(index).then((s) => { if (live) setState(s); }, () => {});
    return () => { live = false; };
  }, [client, summary, index]);
  return state;
}
