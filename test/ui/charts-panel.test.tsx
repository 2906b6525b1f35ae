// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { useCursor } from '../../src/store/cursor.ts';
// The harness first: it gives jsdom the matchMedia that uPlot reads when it loads.
import { loadText } from './harness.ts';
import { ChartsPanel } from '../../src/ui/charts/ChartsPanel.tsx';

afterEach(cleanup);

describe('Charts panel (issue #19)', () => {
  it('shows two named figures whose text follows the cursor (the core\'s surface estimate)', async () => {
    const { engine } = await loadText(generateLog({ dialect: 'v0', seed: 8, turns: 4, compactEvery: 2 }).text);
    render(<ChartsPanel />);
    const usage = await screen.findByRole('figure', { name: 'Context usage over time' });
    const calls = screen.getByRole('figure', { name: 'Tokens per model call' });
    const count = useCursor.getState().count;
    for (const at of [2, Math.floor(count / 2), count - 1]) {
      useCursor.getState().seek(at);
      const tokens = engine.state({ index: at, window: { from: 0, count: 0 } }).tokens;
      await waitFor(() => expect(within(usage).getByText(`~${tokens.toLocaleString('en')}`)).toBeTruthy());
    }
    expect(within(usage).getByText(/compactions? \(red\)/)).toBeTruthy();
    expect(within(calls).getByText(/calls reported usage/)).toBeTruthy();
    expect(within(calls).getByRole('status').textContent).toMatch(/^ Call \d+ \(at the cursor\)/);
  });
});
