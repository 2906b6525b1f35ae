import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';
import type { LogEvent } from '../log/types.ts';
import type { SurfaceVisitor } from '../surface/walk.ts';
import { isInheritedMarker } from '../workspace/forks.ts';

/**
 * One background job of a session (dsh-log-rules V6): its `job/registered`
 * and `job/settled` records paired by id, with what the log says of it.
 */
export interface Job {
  id: string;
  /** What kind of work it is (`bash`, `subagent`, …), as logged. */
  kind: string | null;
  label: string | null;
  /** Null for a settlement with no registration before it (a finding says so). */
  registeredSeq: number | null;
  /** Null while it runs. */
  settledSeq: number | null;
  /** How it ended, as logged (completed, failed, killed, …); null while it runs. */
  outcome: string | null;
  /** The settlement's detail (a failure's text), as logged. */
  detail: string | null;
  /** The first turn whose `turn/end` came while it was still running. */
  runningAtTurnEnd: number | null;
  /** No settlement by the end of the log. */
  runningAtEnd: boolean;
  /** A fork child carries it from its parent, still running (registered before the inherited end-seed). */
  inherited: boolean;
}

/** The jobs of a log and what pairing them found. */
export interface JobsReport {
  jobs: Job[];
  findings: Diagnostic[];
}

export const JOB_TYPES: ReadonlySet<string> = new Set(['job/registered', 'job/settled']);

const text = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
/** The id a job record pairs by; the reader's payload check requires it (V6). */
export const jobIdOf = (event: Pick<LogEvent, 'data'>): string | null => text(event.data?.id);

/**
 * Pairs the job records as a walk passes them, in log order. A visitor of
 * the load's one walk (and of `jobsOf` for a log read whole), so the app and
 * the CLI pair jobs by the same rule. Its report can be asked at any time
 * (a followed log goes on growing).
 */
export class JobTally implements SurfaceVisitor {
  readonly reads: ReadonlySet<string> = new Set([...JOB_TYPES, 'turn/end', 'session/end-seed']);
  private readonly jobs: Job[] = [];
  private readonly byId = new Map<string, Job>();
  /** Registered, not yet settled. */
  private readonly running = new Set<Job>();
  /** Registered with `inherited: true` (a fork child's own record of its parent's job). */
  private readonly flagged = new Set<Job>();
  /** Each job's first turn end while running, and that turn/end's seq (a restore's closer is not the log's: report drops it). */
  private readonly turnEnd = new Map<Job, { turn: number | null; seq: number }>();
  private readonly findings: Diagnostic[] = [];

  after(event: LogEvent): void {
    const { type, seq } = event;
    if (type === 'turn/end') {
      const turn = typeof event.data?.turn === 'number' ? event.data.turn : null;
      for (const job of this.running) if (!this.turnEnd.has(job)) this.turnEnd.set(job, { turn, seq });
      return;
    }
    if (type === 'session/end-seed') {
      // The last tagged marker is the fork cut (L1.7): a later one decides again for every job.
      if (isInheritedMarker(event)) for (const job of this.jobs) job.inherited = this.running.has(job) || this.flagged.has(job);
      return;
    }
    if (!JOB_TYPES.has(type)) return;
    const id = jobIdOf(event);
    // Without an id the record pairs with nothing; the reader's payload check reports it.
    if (id === null) return;
    const d = event.data;
    const known = this.byId.get(id);
    if (type === 'job/registered') {
      // A fork child's own record of a parent's job that still runs: the same job, no repeat.
      if (known && d.inherited === true && this.running.has(known)) {
        this.flagged.add(known);
        known.inherited = true;
        return;
      }
      if (known) {
        this.findings.push(diagnostic('job.repeated', `job/registered at seq ${seq} registers job ${id} again (first at seq ${known.registeredSeq ?? known.settledSeq}); the first registration is kept`, { seq, path: 'data.id' }));
        return;
      }
      const job: Job = {
        id, kind: text(d.kind), label: text(d.label), registeredSeq: seq, settledSeq: null, outcome: null, detail: null,
        runningAtTurnEnd: null, runningAtEnd: false, inherited: d.inherited === true,
      };
      this.add(job);
      this.running.add(job);
      if (job.inherited) this.flagged.add(job);
      return;
    }
    if (known && known.settledSeq !== null) {
      this.findings.push(diagnostic('job.repeated', `job/settled at seq ${seq} settles job ${id} again (settled at seq ${known.settledSeq}); the first settlement is kept`, { seq, path: 'data.id' }));
      return;
    }
    const job = known ?? this.unregistered(id, event);
    job.settledSeq = seq;
    job.outcome = text(d.outcome) ?? text(d.status) ?? 'settled';
    job.detail = text(d.detail) ?? text(d.error) ?? text(d.reason);
    job.kind ??= text(d.kind);
    job.label ??= text(d.label);
    this.running.delete(job);
  }

  /**
   * The jobs so far, in the order they were first logged, and the findings.
   * `lastLoggedSeq`: the log's last seq, so a turn end the restore appended
   * (an interrupted turn's closer, not in the file) is not one a job outlived.
   */
  report(lastLoggedSeq = Infinity): JobsReport {
    return {
      jobs: this.jobs.map((j) => {
        const end = this.turnEnd.get(j);
        return { ...j, runningAtEnd: j.settledSeq === null, runningAtTurnEnd: end && end.seq <= lastLoggedSeq ? end.turn : null };
      }),
      findings: [...this.findings],
    };
  }

  private unregistered(id: string, event: LogEvent): Job {
    this.findings.push(diagnostic('job.unregistered', `job/settled at seq ${event.seq} settles job ${id}, which no earlier job/registered registers`, { seq: event.seq, path: 'data.id' }));
    const job: Job = { id, kind: null, label: null, registeredSeq: null, settledSeq: null, outcome: null, detail: null, runningAtTurnEnd: null, runningAtEnd: false, inherited: false };
    this.add(job);
    return job;
  }

  private add(job: Job): void {
    this.jobs.push(job);
    this.byId.set(job.id, job);
  }
}

/** The jobs of a log's first `logged` events, in order (the restore's own events after them are not the log's). */
export function jobsOf(events: { readonly length: number; at(i: number): LogEvent | undefined }, logged = events.length): JobsReport {
  const tally = new JobTally();
  for (let i = 0; i < logged; i++) {
    const e = events.at(i)!;
    if (tally.reads.has(e.type)) tally.after(e);
  }
  return tally.report();
}
