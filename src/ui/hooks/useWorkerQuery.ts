import { useEffect, useState } from 'react';
import { useSession } from '../../store/session.ts';
import type { WorkerClient } from '../../worker/client.ts';

/**
 * Asks the worker something whenever `deps` change, once a log is loaded;
 * the latest request wins, so a fast scrub never shows a stale answer.
 * `query` returning null means "nothing to ask" (the result is cleared).
 */
export function useWorkerQuery<T>(query: (client: WorkerClient) => Promise<T> | null, deps: readonly unknown[]): T | null {
  const client = useSession((s) => s.client);
  const summary = useSession((s) => s.summary);
  const [result, setResult] = useState<T | null>(null);
  useEffect(() => {
    const pending = client && summary ? query(client) : null;
    if (!pending) { setResult(null); return; }
    let live = true;
    pending.then((r) => { if (live) setResult(r); }, () => { if (live) setResult(null); });
    return () => { live = false; };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, summary, ...deps]);
  return result;
}
