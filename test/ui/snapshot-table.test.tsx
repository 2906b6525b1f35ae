// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SnapshotTable } from '../../src/ui/prompt/SnapshotTable.tsx';
import type { ContextSnapshotRow } from '../../src/worker/protocol.ts';
// The page's layout (element sizes, ResizeObserver) as the other panel tests have it.
import './harness.ts';

afterEach(cleanup);

/** A long session's snapshots: one every few seqs, as a 1M-event log has thousands. */
const snapshots: ContextSnapshotRow[] = Array.from({ length: 5000 }, (_, k) => ({
  seq: 5 + k * 7, index: 5 + k * 7, names: ['sandbox:policy'], onSurface: true, shadowedBy: null,
  reemittedAfterShadowing: false, unchanged: k % 3 !== 0, cleared: false, turn: k + 1, step: 1,
}));

describe('the runtime-context snapshot list on a long session (issue #15)', () => {
  it('draws a screen of rows, not all 5,000, and marks the one shown', () => {
    render(<SnapshotTable snapshots={snapshots} shownSeq={snapshots[3].seq} onJump={() => {}} onPick={() => {}} />);
    const rows = screen.getAllByRole('row').filter((r) => r.querySelector('td'));
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(80);
    expect(screen.getByRole('table').getAttribute('aria-rowcount')).toBe('5001');
    const selected = rows.filter((r) => r.classList.contains('selected'));
    expect(selected.map((r) => r.querySelector('td')!.textContent)).toEqual([String(snapshots[3].seq)]);
  });

  it('its links move the cursor and pick the snapshots to compare', () => {
    const jumped: number[] = [];
    const picked: [string, number][] = [];
    render(<SnapshotTable snapshots={snapshots} shownSeq={null} onJump={(s) => jumped.push(s)} onPick={(side, s) => picked.push([side, s])} />);
    fireEvent.click(screen.getByRole('button', { name: String(snapshots[2].seq) }));
    fireEvent.click(screen.getByRole('button', { name: `Show snapshot ${snapshots[1].seq}` }));
    fireEvent.click(screen.getByRole('button', { name: `Compare from snapshot ${snapshots[0].seq}` }));
    expect(jumped).toEqual([snapshots[2].seq]);
    expect(picked).toEqual([['b', snapshots[1].seq], ['a', snapshots[0].seq]]);
    expect(screen.queryAllByRole('row').some((r) => r.classList.contains('selected'))).toBe(false);
  });
});
