import { generationFindings, generationIndex, isOlderGeneration, type GenerationFile, type GenerationFinding, type GenerationIndex } from './generations.ts';
import type { LogSummary } from './summary.ts';

/** A session and the subagent sessions started from it. */
export interface SessionNode {
  /** The session's highest generation when it has several (dsh-log-rules L1.2): the file DSH reads. */
  summary: LogSummary;
  children: SessionNode[];
  /** The header names a parent session that is not in the folder. */
  missingParent: boolean;
  /** The session's other generations, highest first: immutable history, not rows of their own. */
  older: GenerationFile[];
  /** What its generations say (generations.ts): mixed compression, a version off its name, each older one present. */
  generationFindings: GenerationFinding[];
}

/**
 * The folder's sessions as trees: a child under the log its header's
 * `parentSession` names (fork children, with `seedLength`/`isSeeded`, the
 * same way). Session ids repeat (copies, fixtures), so a child takes the
 * candidate whose path shares the most with its own: its own folder first,
 * and there the name it extends (`run.1.jsonl` under `run.jsonl`). A child whose parent is not here stays at the top
 * and says so; files that are not logs are top-level rows of their own.
 * Children are in creation order. A session with several generations is one
 * node, its highest; `generations` groups the folder's files (give it every
 * path, read or not, so an older generation never shows as a session while
 * its latest is still being read).
 */
export function sessionTree(rows: readonly LogSummary[], generations: GenerationIndex = generationIndex(rows.map((r) => r.file))): SessionNode[] {
  const formatOf = new Map(rows.map((r) => [r.file, r.isLog ? r.format : null]));
  // One node per session: children find their parent's live generation, never its history.
  const nodes = rows.filter((r) => !isOlderGeneration(generations, r.file)).map((summary): SessionNode => {
    const session = generations.byFile.get(summary.file);
    return {
      summary, children: [], missingParent: false,
      older: session?.older ?? [],
      generationFindings: session ? generationFindings(session, (f) => formatOf.get(f)) : [],
    };
  });
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
