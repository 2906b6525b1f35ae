// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DiagnosticsPanel } from '../../src/ui/diagnostics/DiagnosticsPanel.tsx';
import { findingRows } from '../../src/ui/diagnostics/finding-rows.ts';
import { useSession } from '../../src/store/session.ts';
import { useCursor } from '../../src/store/cursor.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import type { Diagnostic } from '../../src/core/diagnostics/diagnostic.ts';
import { loadText } from './harness.ts';

afterEach(cleanup);

const finding = (severity: Diagnostic['severity'], k: number): Diagnostic & { index: number } =>
  ({ severity, code: severity === 'info' ? 'context.unexplained-reemission' : 'row.seq-gap', message: `finding ${k}`, line: k + 2, seq: k, index: k }) as Diagnostic & { index: number };

describe('the findings as rows (issue #15: a long session has thousands)', () => {
  const findings = [finding('info', 0), finding('error', 1), finding('warning', 2), finding('error', 3)];

  it('a heading per severity, most severe first, then its findings in log order', () => {
    const rows = findingRows(findings, 'info', {});
    expect(rows.map((r) => (r.kind === 'group' ? `${r.severity}:${r.count}` : r.finding.seq))).toEqual(['error:2', 1, 3, 'warning:1', 2, 'info:1', 0]);
  });

  it('drops severities below the minimum and the findings of a closed group', () => {
    expect(findingRows(findings, 'warning', {}).map((r) => (r.kind === 'group' ? r.severity : r.finding.seq))).toEqual(['error', 1, 3, 'warning', 2]);
    expect(findingRows(findings, 'info', { error: false }).map((r) => (r.kind === 'group' ? r.severity : r.finding.seq))).toEqual(['error', 'warning', 2, 'info', 0]);
  });

  it('a long info group starts closed, a long warning group open', () => {
    const many = Array.from({ length: 60 }, (_, k) => finding(k < 30 ? 'info' : 'warning', k)).concat(Array.from({ length: 30 }, (_, k) => finding('info', 60 + k)));
    const groups = findingRows(many, 'info', {}).filter((r) => r.kind === 'group');
    expect(groups).toEqual([{ kind: 'group', severity: 'warning', count: 30, open: true }, { kind: 'group', severity: 'info', count: 60, open: false }]);
  });
});

describe('the Diagnostics panel on 6,000 findings', () => {
  it('draws a screen of them, opens and closes a group, and a finding moves the cursor', async () => {
    await loadText(generateLog({ dialect: 'v0', seed: 3, turns: 2 }).text);
    const summary = useSession.getState().summary!;
    const count = summary.count;
    const diagnostics = Array.from({ length: 6000 }, (_, k) => finding(k % 2 ? 'warning' : 'info', k % count));
    act(() => useSession.setState({ summary: { ...summary, diagnostics } }));
    render(<DiagnosticsPanel />);
    const list = screen.getByRole('list', { name: 'Findings' });
    const drawn = () => within(list).getAllByRole('listitem');
    expect(drawn().length).toBeGreaterThan(1);
    expect(drawn().length).toBeLessThan(80);
    const warnings = within(list).getByRole('button', { name: /Warnings \(3000\)/ });
    expect(warnings.getAttribute('aria-expanded')).toBe('true');
    // The info group is long, so it starts closed; opening it adds its rows to the list, not to the page.
    fireEvent.click(warnings);
    const info = within(list).getByRole('button', { name: /Info \(3000\)/ });
    expect(info.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(info);
    expect(within(list).getByRole('button', { name: /Info \(3000\)/ }).getAttribute('aria-expanded')).toBe('true');
    expect(drawn().length).toBeLessThan(80);
    const first = within(list).getAllByRole('button', { name: /^line \d+ seq \d+$/ })[0];
    const seq = Number(/seq (\d+)/.exec(first.textContent!)![1]);
    fireEvent.click(first);
    expect(useCursor.getState().index).toBe(seq);
  });
});
