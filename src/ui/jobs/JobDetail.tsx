import type { JobRow } from '../../worker/protocol.ts';
import { jobState } from './job-bars.ts';

/**
 * In Event detail, for a job record (dsh-log-rules V6): the job it belongs
 * to, and its other record one click away.
 */
export function JobDetail({ seq, jobs, jump }: { seq: number; jobs: readonly JobRow[]; jump(seq: number): void }) {
  const job = jobs.find((j) => j.registeredSeq === seq || j.settledSeq === seq);
  if (!job) return null;
  const link = (s: number) => <button className="link mono" onClick={() => jump(s)}>{s}</button>;
  const state = jobState(job);
  return (
    <div className="refs pad job-detail" role="group" aria-label={`Job ${job.id}`}>
      <span className={`job-key job-${state}`}>job <strong className="mono">{job.id}</strong></span>
      {(job.kind || job.label) && <span className="muted"> {[job.kind, job.label].filter(Boolean).join(' · ')}</span>}
      <span> · registered {job.registeredSeq === null ? <em>nowhere before its settlement</em> : link(job.registeredSeq)}</span>
      <span> · {job.settledSeq === null ? 'still running at the end of the log' : <>{job.outcome} at {link(job.settledSeq)}</>}</span>
      {job.detail && <span className="muted"> — {job.detail}</span>}
      {job.runningAtTurnEnd !== null && <span className="badge warn"> running when turn {job.runningAtTurnEnd} ended</span>}
      {job.inherited && <span className="badge inherited-badge"> inherited from the parent session</span>}
    </div>
  );
}
