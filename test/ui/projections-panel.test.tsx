// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ProjectionsPanel } from '../../src/ui/projections/ProjectionsPanel.tsx';
import { FriendlyView } from '../../src/ui/projections/FriendlyView.tsx';
import { useSession } from '../../src/store/session.ts';
import { useCursor } from '../../src/store/cursor.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { loadText } from './harness.ts';

afterEach(cleanup);

/** Each card's value as drawn, by unit. */
const drawnValues = (): Map<string, string> => new Map([...document.querySelectorAll('article')].map((card) => [card.getAttribute('aria-label')!.replace('Projection ', ''), card.querySelector('.projection-body')!.textContent!]));

/** The same values drawn fresh from the worker's answer at `index`. */
async function freshValues(index: number): Promise<Map<string, string>> {
  const units = await useSession.getState().client!.projections(index);
  const out = new Map<string, string>();
  for (const p of units) {
    const { container, unmount } = render(<FriendlyView unit={p.key} view={p.view} />);
    out.set(p.key, container.textContent!);
    unmount();
  }
  return out;
}

async function showAt(index: number): Promise<void> {
  act(() => useCursor.getState().seek(index));
  const seq = useSession.getState().summary!.columns.seq[index];
  // Read straight off the toolbar: a query over the whole page each poll is slow in jsdom.
  await waitFor(() => expect(document.querySelector('.projections .panel-toolbar .muted')?.textContent).toMatch(new RegExp(`units at seq ${seq}$`)), { interval: 2 });
}

describe('the Projections panel draws a unit again only when its value changed (issue #15)', () => {
  it('shows every unit\'s value at every cursor position of a log, stepping forward and back', async () => {
    await loadText(generateLog({ dialect: 'v0', seed: 4, turns: 1 }).text);
    const count = useSession.getState().summary!.count;
    render(<ProjectionsPanel />);
    // Every position of the first 100 events one by one, then back over the whole log in strides.
    const order = [...Array.from({ length: Math.min(count, 100) }, (_, i) => i), ...Array.from({ length: count }, (_, i) => count - 1 - i).filter((_, k) => k % 25 === 0)];
    let changedAtSome = 0;
    for (const index of order) {
      await showAt(index);
      const fresh = await freshValues(index);
      expect(drawnValues()).toEqual(fresh);
      changedAtSome += document.querySelectorAll('.changed-badge').length;
    }
    // The walk did pass value changes (else it would not test redrawing them).
    expect(changedAtSome).toBeGreaterThan(3);
  });

  it('a newly opened log shows its own values, even where a unit\'s change history lines up with the old one', async () => {
    await loadText(generateLog({ dialect: 'v0', seed: 4, turns: 3 }).text);
    render(<ProjectionsPanel />);
    const last = () => useSession.getState().summary!.count - 1;
    await showAt(last());
    const before = within(screen.getByRole('article', { name: 'Projection title' })).getByText(/./, { selector: '.friendly' }).textContent;
    await loadText(generateLog({ dialect: 'v0', seed: 11, turns: 3 }).text);
    await showAt(last());
    expect(drawnValues()).toEqual(await freshValues(last()));
    expect(within(screen.getByRole('article', { name: 'Projection title' })).getByText(/./, { selector: '.friendly' }).textContent).not.toBe(before);
  });
});

describe('friendly views of DSH 0.2\'s subagent units', () => {
  it('lists a parent\'s children, and says how long a child worked and how its last turn ended', () => {
    const catalog = render(<FriendlyView unit="subagentCatalog" view={[
      { id: 'child-1', createdAt: Date.UTC(2026, 9, 9, 12, 30, 5), mode: 'continuable', label: 'reviewer' },
      { id: 'ext-9', createdAt: 0, mode: 'external' },
      // Past the last date a Date can hold: DSH allows any integer.
      { id: 'far', createdAt: 9e15, mode: 'one-shot' },
    ]} />);
    const items = [...catalog.container.querySelectorAll('li')].map((li) => li.textContent);
    expect(items).toEqual(['reviewer continuable child-1 · created 2026-10-09 12:30:05', '(no label) external ext-9 · created 1970-01-01 00:00:00', '(no label) one-shot far · created 9000000000000000']);
    catalog.unmount();
    expect(render(<FriendlyView unit="subagentCatalog" view={[]} />).container.textContent).toBe('no children listed');
    cleanup();
    const timing = render(<FriendlyView unit="subagentTiming" view={{ settledMs: 125_000, lastTurnCompleted: false }} />);
    expect(timing.container.textContent).toBe('2 min 5 s in settled turns · last turn did not complete');
    timing.unmount();
    expect(render(<FriendlyView unit="subagentTiming" view={{ settledMs: 0, active: { since: 1000, through: 4500 } }} />).container.textContent).toBe('0 ms in settled turns · a turn open for 3.5 s');
  });
});

describe('a unit whose view fails its schema', () => {
  it('says since which seq, and that seq takes the cursor there', async () => {
    const rows = [
      { type: 'session', version: 4, isSeeded: false, id: 's', createdAt: 1, cwd: '/work', delegationDepth: 0 },
      { type: 'turn/start', seq: 0, time: 1000, data: { turn: 1 } },
      { type: 'working-directory/change', seq: 1, time: 1001, data: { cwd: 'not/absolute' } },
      { type: 'user/message', seq: 2, time: 1002, surfaceOp: 'append', data: { id: 'u1', role: 'user', content: [{ type: 'text', text: 'hi' }], source: { kind: 'user' } } },
      { type: 'turn/end', seq: 3, time: 1003, data: { turn: 1, reason: { kind: 'completed' } } },
    ];
    await loadText(rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    render(<ProjectionsPanel />);
    await showAt(3);
    const card = screen.getByRole('article', { name: 'Projection workingDirectory' });
    const alert = await within(card).findByRole('alert');
    expect(alert.textContent).toBe('failing since seq 1: view of "workingDirectory" fails its schema: value: must be an absolute path');
    act(() => within(alert).getByRole('button', { name: 'seq 1' }).click());
    expect(useCursor.getState().index).toBe(1);
  });
});
