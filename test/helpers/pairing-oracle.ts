import type { NodeIdentity, PairedNode } from '../../src/core/compare/side-by-side.ts';

/**
 * The node pairing as it was written before it read interned keys (issue
 * #15): maps of strings, looked up node by node. Kept as the oracle the
 * array version must equal.
 */
export function pairNodesOracle(a: readonly NodeIdentity[], b: readonly NodeIdentity[], window = 64): PairedNode[] {
  const byId = new Map<string, number>();
  const byContent = new Map<string, number[]>();
  b.forEach((n, i) => {
    if (n.messageId !== null && !byId.has(n.messageId)) byId.set(n.messageId, i);
    if (n.content !== null) { const list = byContent.get(n.content); if (list) list.push(i); else byContent.set(n.content, [i]); }
  });
  const cursor = new Map<string, number>();
  const out: PairedNode[] = [];
  let last = -1;
  const takeUpTo = (k: number) => { for (let j = last + 1; j < k; j++) out.push({ a: null, b: j, match: 'b-only' }); };
  for (let i = 0; i < a.length; i++) {
    const n = a[i];
    let match = n.messageId !== null ? byId.get(n.messageId) : undefined;
    if (match !== undefined && match <= last) match = undefined;
    if (match === undefined && n.content !== null) {
      const list = byContent.get(n.content);
      if (list) {
        let p = cursor.get(n.content) ?? 0;
        while (p < list.length && list[p] <= last) p++;
        cursor.set(n.content, p);
        if (p < list.length && list[p] - last <= window) match = list[p];
      }
    }
    if (match === undefined) { out.push({ a: i, b: null, match: 'a-only' }); continue; }
    takeUpTo(match);
    out.push({ a: i, b: match, match: n.content === b[match].content ? 'same' : 'changed' });
    last = match;
  }
  takeUpTo(b.length);
  return out;
}
