import type { JobRow } from '../../worker/protocol.ts';

/** How a job's bar is coloured: its outcome, or running (no settlement yet). */
export type JobState = 'completed' | 'failed' | 'killed' | 'running' | 'other';

/** One job's bar on the timeline's event axis, in a row of its own among the ones it overlaps. */
export interface JobBar {
  job: JobRow;
  /** First and last event index the bar covers (the settlement, or the log's end while running). */
  from: number;
  to: number;
  row: number;
  state: JobState;
  /** Where a click takes the cursor: the registration, or the settlement when there is none. */
  target: number;
}

const KNOWN_STATES: ReadonlySet<string> = new Set(['completed', 'failed', 'killed']);

export function jobState(job: Pick<JobRow, 'outcome' | 'settledSeq'>): JobState {
  if (job.settledSeq === null) return 'running';
  return job.outcome !== null && KNOWN_STATES.has(job.outcome) ? (job.outcome as JobState) : 'other';
}

/**
 * The bars of a log's jobs: from registration to settlement (open-ended to
 * the last event while running), stacked greedily so overlapping jobs take
 * separate rows, at most `maxRows` (later ones share the last row).
 */
export function jobBars(jobs: readonly JobRow[], eventCount: number, maxRows = 4): JobBar[] {
  const rowEnds: number[] = [];
  const bars: JobBar[] = [];
  const ordered = [...jobs].sort((a, b) => startOf(a) - startOf(b));
  for (const job of ordered) {
    const from = startOf(job);
    const to = job.settledIndex >= 0 ? job.settledIndex : Math.max(from, eventCount - 1);
    let row = rowEnds.findIndex((end) => end < from);
    if (row < 0) row = rowEnds.length < maxRows ? rowEnds.length : maxRows - 1;
    rowEnds[row] = Math.max(rowEnds[row] ?? -1, to);
    bars.push({ job, from, to, row, state: jobState(job), target: from });
  }
  return bars;
}

const startOf = (job: JobRow) => (job.registeredIndex >= 0 ? job.registeredIndex : job.settledIndex);

/** A job in one line, for a bar's tooltip and a detail row: id, kind, label, how it ended and where. */
export function jobText(job: JobRow): string {
  const what = [job.kind, job.label].filter(Boolean).join(' · ');
  const state = job.settledSeq === null ? 'still running at the end of the log' : `${job.outcome} at seq ${job.settledSeq}`;
  const from = job.registeredSeq === null ? 'no registration' : `registered at seq ${job.registeredSeq}`;
  const marks = [
    job.inherited ? 'inherited from the parent session' : null,
    job.runningAtTurnEnd !== null ? `running when turn ${job.runningAtTurnEnd} ended` : null,
  ].filter(Boolean);
  return `job ${job.id}${what ? ` (${what})` : ''}: ${from}, ${state}${job.detail ? ` — ${job.detail}` : ''}${marks.length ? `; ${marks.join('; ')}` : ''}`;
}
