import { memo, useMemo } from 'react';
import type { LoadSummary } from '../../worker/protocol.ts';
import { xOf, type TimelineView } from './draw.ts';
import { jobBars, jobText } from '../jobs/job-bars.ts';
import '../jobs/jobs.css';

const ROW_H = 8;

interface Props {
  summary: LoadSummary;
  view: TimelineView;
  width: number;
  seek(index: number): void;
}

/**
 * Background jobs (dsh-log-rules V6) on the timeline's axis: a bar from each
 * job's registration to its settlement, coloured by outcome, open-ended while
 * it runs. A click moves the cursor to the registration. Jobs are few, so
 * each bar is a button (keyboard and screen readers reach it). Memoised: the
 * timeline renders on every cursor step, the bars only when the view moves.
 */
export const JobsLane = memo(function JobsLane({ summary, view, width, seek }: Props) {
  const bars = useMemo(() => jobBars(summary.jobs, summary.count), [summary]);
  if (!bars.length) return null;
  const rows = Math.max(...bars.map((b) => b.row)) + 1;
  const running = bars.filter((b) => b.state === 'running').length;
  return (
    <div className="jobs-lane" role="group" aria-label="Jobs">
      <div className="jobs-head">
        <span className="jobs-title">Jobs</span>
        <span>{bars.length} background job{bars.length === 1 ? '' : 's'}{running ? `, ${running} still running at the end` : ''}</span>
        <span className="job-key job-completed">completed</span>
        <span className="job-key job-failed">failed</span>
        <span className="job-key job-killed">killed</span>
        <span className="job-key job-running">running</span>
      </div>
      <div className="jobs-bars" style={{ height: rows * ROW_H + 2 }}>
        {bars.map((b) => {
          const left = xOf(view, width, b.from);
          const right = xOf(view, width, b.to + 1);
          if (right < 0 || left > width) return null;
          const x = Math.max(0, left);
          const text = jobText(b.job);
          return (
            <button
              key={b.job.id}
              className={`job-bar job-${b.state}${b.job.inherited ? ' job-inherited' : ''}${b.job.runningAtTurnEnd !== null ? ' job-outlived' : ''}`}
              style={{ left: x, width: Math.max(4, Math.min(width, right) - x), top: b.row * ROW_H + 1 }}
              title={text}
              aria-label={text}
              data-job={b.job.id}
              onClick={() => seek(b.target)}
            />
          );
        })}
      </div>
    </div>
  );
});
