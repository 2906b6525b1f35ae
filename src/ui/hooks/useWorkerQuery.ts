import { startTransition, useEffect, useRef, useState } from 'react';
import { useSession } from '../../store/session.ts';
import type { WorkerClient } from '../../worker/client.ts';

/**
 * Asks the worker something whenever `deps` change, once a log is loaded.
 * At most one question of a hook is in flight: while the worker answers,
 * newer deps wait and only the newest is asked next (a held arrow key does
 * not queue hundreds of cursor states), and an answer to superseded deps is
 * never shown. `query` returning null means "nothing to ask" (the result is cleared).
 */
export function useWorkerQuery<T>(query: (client: WorkerClient) => Promise<T> | null, deps: readonly unknown[]): T | null {
  const client = useSession((s) => s.client);
  const summary = useSession((s) => s.summary);
  const [result, setResult] = useState<T | null>(null);
  const flight = useRef<{ busy: boolean; next: (() => void) | null; generation: number }>({ busy: false, next: null, generation: 0 });
  useEffect(() => {
    const f = flight.current;
    const generation = ++f.generation;
    const ask = () => {
      const pending = client && summary ? query(client) : null;
      if (!pending) {
        setResult(null);
        return;
      }
      f.busy = true;
      const settle = (value: T | null) => {
        f.busy = false;
        // An answer is not urgent: React may render it between input events, not ahead of them.
        if (generation === f.generation) startTransition(() => setResult(value));
        const next = f.next;
        f.next = null;
        next?.();
      };
      pending.then(settle, () => settle(null));
    };
    if (f.busy) f.next = ask;
    else ask();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, summary, ...deps]);
  return result;
}
