import { useCallback, useEffect, useRef, useState } from 'react';
import { useSession } from '../../store/session.ts';
import type { RowSummary } from '../../worker/protocol.ts';

const BLOCK = 256;

/**
 * Row summaries fetched from the worker in blocks as they scroll into view;
 * the main thread never holds the whole log.
 */
export function useRows(): (index: number) => RowSummary | undefined {
  const summary = useSession((s) => s.summary);
  const client = useSession((s) => s.client);
  const blocks = useRef(new Map<number, RowSummary[]>());
  const inflight = useRef(new Set<number>());
  const [, bump] = useState(0);
  useEffect(() => {
    blocks.current = new Map();
    inflight.current = new Set();
    bump((n) => n + 1);
  }, [summary]);
  return useCallback((index: number) => {
    const b = Math.floor(index / BLOCK);
    const block = blocks.current.get(b);
    if (block) return block[index - b * BLOCK];
    if (client && !inflight.current.has(b)) {
      inflight.current.add(b);
      const forSummary = summary;
      client.rows(b * BLOCK, BLOCK).then((rows) => {
        if (useSession.getState().summary !== forSummary) return;
        blocks.current.set(b, rows);
        bump((n) => n + 1);
      }, () => inflight.current.delete(b));
    }
    return undefined;
  }, [client, summary]);
}
