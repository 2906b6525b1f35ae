// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { useCursor } from '../../src/store/cursor.ts';
import { useSession } from '../../src/store/session.ts';
import { EventInspector } from '../../src/ui/inspector/EventInspector.tsx';
import { Timeline } from '../../src/ui/timeline/Timeline.tsx';
import { loadText } from './harness.ts';

/** The Jobs lane and a job record's Event detail (docs/dsh-log-rules.md V6), on a log our generator writes. */
describe('Jobs lane', () => {
  afterEach(cleanup);
  const log = generateLog({ dialect: 'v4', seed: 3, turns: 5, jobs: true });

  it('draws one bar per job, coloured by outcome; a click moves the cursor to its registration', async () => {
    await loadText(log.text);
    const summary = useSession.getState().summary!;
    expect(summary.jobs.map((j) => j.id)).toEqual(['job-dev-server', 'job-review-1', 'job-test-2', 'job-test-3', 'job-test-4', 'job-test-5']);
    render(<Timeline />);
    const lane = screen.getByRole('group', { name: 'Jobs' });
    expect(within(lane).getByText(/6 background jobs, 2 still running at the end/)).toBeTruthy();
    const bars = lane.querySelectorAll('button.job-bar');
    expect(bars).toHaveLength(6);
    const failed = lane.querySelector('[data-job="job-test-3"]')!;
    expect(failed.className).toContain('job-failed');
    expect(failed.getAttribute('aria-label')).toMatch(/job job-test-3 \(bash · npm test -- --run \(turn 3\)\): registered at seq \d+, failed at seq \d+ — exit code 1: 2 tests failed; running when turn 3 ended/);
    expect(lane.querySelector('[data-job="job-dev-server"]')!.className).toContain('job-running');
    fireEvent.click(failed);
    const job = summary.jobs.find((j) => j.id === 'job-test-3')!;
    expect(useCursor.getState().index).toBe(job.registeredIndex);
    expect(summary.columns.seq[job.registeredIndex]).toBe(job.registeredSeq);
  });

  it('a log without jobs has no Jobs lane', async () => {
    await loadText(generateLog({ dialect: 'v4', seed: 3, turns: 2 }).text);
    render(<Timeline />);
    expect(screen.queryByRole('group', { name: 'Jobs' })).toBeNull();
  });

  it('Event detail of a job record names its job, with its other record one click away', async () => {
    await loadText(log.text);
    const summary = useSession.getState().summary!;
    const job = summary.jobs.find((j) => j.id === 'job-review-1')!;
    useCursor.getState().seek(job.registeredIndex);
    render(<EventInspector />);
    const row = await screen.findByRole('group', { name: 'Job job-review-1' });
    expect(row.textContent).toMatch(/subagent · reviewer: check the first fix/);
    expect(row.textContent).toMatch(/completed at/);
    fireEvent.click(within(row).getByRole('button', { name: String(job.settledSeq) }));
    expect(useCursor.getState().index).toBe(job.settledIndex);
  });
});
