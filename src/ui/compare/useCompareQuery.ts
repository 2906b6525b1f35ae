import { useEffect, useState } from 'react';
import { useCompare } from '../../store/compare.ts';
import { useSession } from '../../store/session.ts';
import { compareClient, type CompareClient } from '../../worker/compare-client.ts';

/**
 * Asks the worker's compare slot something whenever `deps` change, once the
 * comparison is made; the latest request wins (a fast step never shows a
 * stale answer). `query` returning null means "nothing to ask".
 */
export function useCompareQuery<T>(query: (compare: CompareClient) => Promise<T> | null, deps: readonly unknown[]): T | null {
  const client = useSession((s) => s.client);
  const view = useCompare((s) => s.view);
  const [result, setResult] = useState<T | null>(null);
  useEffect(() => {
    const pending = client && view ? query(compareClient(client)) : null;
    if (!pending) { setResult(null); return; }
    let live = true;
    pending.then((r) => { if (live) setResult(r); }, () => { if (live) setResult(null); });
    return () => { live = false; };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, view, ...deps]);
  return result;
}
