import type { LogSummary } from './summary.ts';

/** A session and the subagent sessions started from it. */
export interface SessionNode {
  summary: LogSummary;
  children: SessionNode[];
  /** The header names a parent session that is not in the folder. */
  missingParent: boolean;
}

/**
 * The folder's sessions as trees: a child under the log its header's
 * `parentSession` names (fork children, with `seedLength`/`isSeeded`, the
 * same way). Session ids repeat (copies, fixtures), so a child takes the
 * candidate whose path shares the most with its own: its own folder first,
 * and there the name it extends (`run.1.jsonl` under `run.jsonl`). A child whose parent is not here stays at the top
 * and says so; files that are not logs are top-level rows of their own.
 * Children are in creation order.
 */
export function sessionTree(rows: readonly LogSummary[]): SessionNode[] {
  const nodes = rows.map((summary): SessionNode => ({ summary, children: [], missingParent: false }));
  const byId = new Map<string, SessionNode[]>();
  for (const n of nodes) {
    const id = n.summary.isLog ? n.summary.id : null;
    if (id !== null) byId.set(id, [...(byId.get(id) ?? []), n]);
  }
  const parentOf = new Map<SessionNode, SessionNode>();
  for (const n of nodes) {
    const wanted = n.summary.isLog ? n.summary.parentSession : null;
    if (wanted === null) continue;
    const candidates = (byId.get(wanted) ?? []).filter((c) => c !== n);
    if (candidates.length === 0) { n.missingParent = true; continue; }
    parentOf.set(n, nearest(n.summary.file, candidates));
  }
  // A cycle (ids copied between logs) would hide its members: the first one met stays at the top.
  for (const n of nodes) {
    const seen = new Set<SessionNode>([n]);
    for (let p = parentOf.get(n); p; p = parentOf.get(p)) {
      if (seen.has(p)) { parentOf.delete(n); break; }
      seen.add(p);
    }
  }
  const roots: SessionNode[] = [];
  for (const n of nodes) {
    const p = parentOf.get(n);
    if (p) p.children.push(n);
    else roots.push(n);
  }
  for (const n of nodes) n.children.sort((a, b) => (a.summary.createdAt ?? 0) - (b.summary.createdAt ?? 0) || a.summary.file.localeCompare(b.summary.file));
  return roots;
}

/** The candidate whose path has the longest common prefix with `file` (the first on a tie). */
function nearest(file: string, candidates: readonly SessionNode[]): SessionNode {
  let best = candidates[0];
  let bestShared = -1;
  for (const c of candidates) {
    let k = 0;
    while (k < file.length && file[k] === c.summary.file[k]) k++;
    if (k > bestShared) { best = c; bestShared = k; }
  }
  return best;
}
