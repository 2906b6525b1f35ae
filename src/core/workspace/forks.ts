import type { LogEvent, SessionHeader } from '../log/types.ts';
import { isPlainObject } from '../util/json.ts';

/**
 * How the logs of a workspace point at each other (docs/open-and-navigate.md, "Opening a log"): where a child
 * session starts in its parent, and how much of a forked child was copied
 * from its parent.
 */

/**
 * The inherited event count N of a fork child (dsh-log-rules L1.7): rc.8
 * (format 0/1) logs carry it as header `seedLength`; from format 2 a seeded
 * log (`isSeeded`) has it as the seq of its last `session/end-seed
 * {inherited:true}` marker. The events with seq < N are the parent's own,
 * copied with the same seqs. 0 for a log that is not a fork.
 */
export function inheritedEventCount(header: SessionHeader | null, lastInheritedMarkerSeq: number | null): number {
  if (!header) return 0;
  if ((header.version ?? 0) < 2) {
    const n = header.seedLength;
    return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : 0;
  }
  return header.isSeeded === true && lastInheritedMarkerSeq !== null ? lastInheritedMarkerSeq : 0;
}

/** Whether an end-seed event is the tagged fork-cut marker (format 2+, L1.7). */
export const isInheritedMarker = (event: LogEvent): boolean => event.type === 'session/end-seed' && event.data?.inherited === true;

/** An event of a parent log that starts (or records) a child session. */
export interface SpawnPoint {
  seq: number;
  /** `tool-call`: the subagent tools; `catalog`: `subagent/catalog`; `workflow`: `tool-workflow/agent-start`. */
  kind: 'tool-call' | 'catalog' | 'workflow';
  /** The tool name, or the event type. */
  name: string;
  /** The call's `description` (the child's descriptor label), or the record's label. */
  label: string | null;
  /** The child's session id when the event names it (catalog and workflow records do; tool calls do not). */
  childId: string | null;
  /** A fork (the child inherits the parent's events) rather than a fresh child. */
  fork: boolean;
}

/** The event types a parent's spawn points are found in (a load asks only for these). */
export const SPAWN_TYPES = ['tool/call', 'subagent/catalog', 'tool-workflow/agent-start'] as const;

/** The subagent tools that create a child session: a fresh one and a fork. */
const SPAWN_TOOLS: Readonly<Record<string, boolean>> = { subagent: false, subagent_fork: true };

/** The spawn point an event is, if any. */
export function spawnPointOf(event: LogEvent): SpawnPoint | null {
  const d = event.data;
  if (!isPlainObject(d)) return null;
  if (event.type === 'tool/call' && typeof d.name === 'string' && Object.hasOwn(SPAWN_TOOLS, d.name)) {
    let label: string | null = null;
    try {
      const args = typeof d.arguments === 'string' ? JSON.parse(d.arguments) : d.arguments;
      if (isPlainObject(args) && typeof args.description === 'string') label = args.description;
    } catch { /* arguments that are not JSON name no label */ }
    return { seq: event.seq, kind: 'tool-call', name: d.name, label, childId: null, fork: SPAWN_TOOLS[d.name] };
  }
  if ((event.type === 'subagent/catalog' || event.type === 'tool-workflow/agent-start') && typeof d.childId === 'string') {
    return {
      seq: event.seq, kind: event.type === 'subagent/catalog' ? 'catalog' : 'workflow', name: event.type,
      label: typeof d.label === 'string' ? d.label : null, childId: d.childId, fork: false,
    };
  }
  return null;
}

/** What the parent knows of a child from its header. */
export interface ChildRef {
  id: string;
  createdAt: number;
  /** The child inherited the parent's events (header `seedLength` > 0 or `isSeeded`). */
  forked: boolean;
}

export const childRefOf = (header: SessionHeader): ChildRef => ({
  id: header.id,
  createdAt: typeof header.createdAt === 'number' ? header.createdAt : 0,
  forked: (typeof header.seedLength === 'number' && header.seedLength > 0) || header.isSeeded === true,
});

/**
 * Which spawn point of a parent started each of its children (child id →
 * seq in the parent). A record naming the child's id wins. Otherwise the
 * children are matched to the subagent tool calls in order: children by
 * creation time to calls by seq, forks to `subagent_fork` calls and fresh
 * children to `subagent` calls (DSH writes neither the child's id in the call
 * nor the call in the child; a child's descriptor label repeats the call's
 * description, but it is only known once the child is read).
 */
export function linkChildren(points: readonly SpawnPoint[], children: readonly ChildRef[]): Map<string, number> {
  const links = new Map<string, number>();
  for (const p of points) if (p.childId !== null && !links.has(p.childId) && children.some((c) => c.id === p.childId)) links.set(p.childId, p.seq);
  const rest = children.filter((c) => !links.has(c.id)).sort((a, b) => a.createdAt - b.createdAt);
  for (const fork of [false, true]) {
    const calls = points.filter((p) => p.kind === 'tool-call' && p.fork === fork);
    const kids = rest.filter((c) => c.forked === fork);
    for (let k = 0; k < Math.min(calls.length, kids.length); k++) links.set(kids[k].id, calls[k].seq);
  }
  return links;
}
