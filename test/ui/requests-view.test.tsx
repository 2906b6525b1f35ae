// @vitest-environment jsdom
// Issue #19: the Requests view — sortable, filterable columns, column visibility, full window.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { useCursor } from '../../src/store/cursor.ts';
import { useSession } from '../../src/store/session.ts';
import { useView } from '../../src/store/view.ts';
import { RequestsPanel } from '../../src/ui/requests/RequestsPanel.tsx';
import { useRequestsShortcut } from '../../src/ui/requests/full-window.tsx';
import type { RequestRow } from '../../src/worker/protocol.ts';
import { loadText } from './harness.ts';

const text = generateLog({ dialect: 'v4', seed: 5, turns: 6, compactEvery: 3 }).text;

/** The call indexes of the rows the table renders, top to bottom (the virtual window: the first few dozen). */
const shownCalls = (region: HTMLElement) => within(region).getAllByRole('row').slice(1).map((r) => Number(r.getAttribute('data-call')));
const headers = (region: HTMLElement) => within(region).getAllByRole('columnheader').map((h) => h.textContent!.replace(/[▲▼ⓘ]/g, '').trim());
const requests = () => useSession.getState().summary!.requests;

function Shortcut() { useRequestsShortcut(true); return null; }

afterEach(() => {
  cleanup();
  act(() => useView.setState({ requestsFull: false, requestsView: { sort: null, filter: '', hidden: [] }, sideTab: 'inspector' }));
});

describe('Requests view', () => {
  beforeEach(async () => {
    await loadText(text);
    act(() => useCursor.getState().seek(0));
  });

  it('has enough calls to be worth sorting', () => {
    expect(requests().length).toBeGreaterThan(20);
    expect(new Set(requests().map((r) => r.messageCount)).size).toBeGreaterThan(5);
  });

  it('a header click sorts by its column (ascending, descending, log order) and says so with aria-sort', async () => {
    render(<RequestsPanel />);
    const region = screen.getByRole('region', { name: 'Requests' });
    const log = shownCalls(region);
    expect(log).toEqual(log.map((_, i) => i));
    const msgs = within(region).getByRole('columnheader', { name: /msgs/ });
    expect(msgs.getAttribute('aria-sort')).toBe('none');
    const byMsgs = (desc: boolean) => [...requests()].sort((a, b) => (desc ? b.messageCount - a.messageCount : a.messageCount - b.messageCount) || a.index - b.index).map((r) => r.index);
    fireEvent.click(within(msgs).getByRole('button'));
    expect(useView.getState().requestsView.sort).toEqual({ id: 'messageCount', desc: false });
    expect(msgs.getAttribute('aria-sort')).toBe('ascending');
    await waitFor(() => expect(shownCalls(region)).toEqual(byMsgs(false).slice(0, shownCalls(region).length)));
    fireEvent.click(within(msgs).getByRole('button'));
    expect(msgs.getAttribute('aria-sort')).toBe('descending');
    await waitFor(() => expect(shownCalls(region)).toEqual(byMsgs(true).slice(0, shownCalls(region).length)));
    const top = within(region).getAllByRole('row')[1];
    expect(top.querySelector('td.col-messageCount')!.textContent).toBe(String(Math.max(...requests().map((r) => r.messageCount))));
    fireEvent.click(within(msgs).getByRole('button'));
    expect(useView.getState().requestsView.sort).toBeNull();
    await waitFor(() => expect(shownCalls(region)).toEqual(log));
  });

  it('a sort from the store (a link) applies on render', async () => {
    act(() => useView.getState().setRequestsView({ sort: { id: 'index', desc: true } }));
    render(<RequestsPanel />);
    const region = screen.getByRole('region', { name: 'Requests' });
    const n = requests().length;
    expect(within(region).getByRole('columnheader', { name: '#' }).getAttribute('aria-sort')).toBe('descending');
    expect(shownCalls(region).slice(0, 3)).toEqual([n - 1, n - 2, n - 3]);
  });

  it('the filter narrows the rows to the calls whose model, break reason, outcome or turn.step match, and counts them', async () => {
    render(<RequestsPanel />);
    const region = screen.getByRole('region', { name: 'Requests' });
    const n = requests().length;
    expect(within(region).getByLabelText('Matching calls').textContent).toBe(`${n} of ${n} calls`);
    const broke = requests().find((r) => r.index > 0 && !r.extendsPrevious)!;
    const reason = broke.reasons[0];
    const matches = (r: RequestRow, q: string) => [`${r.turn}.${r.step}${r.attempt > 1 ? ` (try ${r.attempt})` : ''}`, r.model, r.extendsPrevious ? '' : r.reasons.join(', '), r.outcome ?? '']
      .some((t) => t.toLowerCase().includes(q.toLowerCase()));
    const expected = requests().filter((r) => matches(r, reason)).map((r) => r.index);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(n);
    fireEvent.change(within(region).getByRole('searchbox', { name: 'Filter calls' }), { target: { value: reason.toUpperCase() } });
    expect(useView.getState().requestsView.filter).toBe(reason.toUpperCase());
    await waitFor(() => expect(within(region).getByLabelText('Matching calls').textContent).toBe(`${expected.length} of ${n} calls`));
    expect(shownCalls(region)).toEqual(expected.slice(0, shownCalls(region).length));
    // A filter that matches nothing says so.
    fireEvent.change(within(region).getByRole('searchbox', { name: 'Filter calls' }), { target: { value: 'no such call here' } });
    await waitFor(() => expect(within(region).getByLabelText('Matching calls').textContent).toBe(`0 of ${n} calls`));
    expect(region.textContent).toContain('No call matches');
  });

  it('hiding a column in the Columns menu removes its header and cells; showing it brings them back', async () => {
    render(<RequestsPanel />);
    const region = screen.getByRole('region', { name: 'Requests' });
    expect(headers(region)).toContain('model');
    const menu = within(region).getByRole('group', { name: 'Visible columns' });
    fireEvent.click(within(menu).getByRole('checkbox', { name: 'model' }));
    expect(useView.getState().requestsView.hidden).toEqual(['model']);
    expect(headers(region)).not.toContain('model');
    expect(region.querySelector('td.col-model')).toBeNull();
    expect(headers(region)).toContain('break reason');
    fireEvent.click(within(menu).getByRole('checkbox', { name: 'model' }));
    expect(headers(region)).toContain('model');
    expect(useView.getState().requestsView.hidden).toEqual([]);
  });

  it('the last visible column cannot be hidden', () => {
    const all = ['index', 'cut', 'ts', 'model', 'messageCount', 'toolCount', 'prefix', 'input', 'cache', 'break', 'cost'];
    act(() => useView.getState().setRequestsView({ hidden: all }));
    render(<RequestsPanel />);
    const region = screen.getByRole('region', { name: 'Requests' });
    expect(headers(region)).toEqual(['outcome']);
    expect((within(region).getByRole('checkbox', { name: 'outcome' }) as HTMLInputElement).disabled).toBe(true);
  });

  it('Full window: the button, Shift+R and Esc toggle it; Shift+R opens the Requests tab and is ignored in a text box', async () => {
    render(<><Shortcut /><RequestsPanel /></>);
    const region = screen.getByRole('region', { name: 'Requests' });
    const button = within(region).getByRole('button', { name: 'Full window' });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(button);
    expect(useView.getState().requestsFull).toBe(true);
    expect(region.classList.contains('full')).toBe(true);
    const exit = within(region).getByRole('button', { name: 'Exit full window' });
    expect(exit.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(exit);
    expect(useView.getState().requestsFull).toBe(false);
    expect(region.classList.contains('full')).toBe(false);
    // Shift+R from anywhere but a text box.
    fireEvent.keyDown(document.body, { key: 'R', shiftKey: true });
    expect(useView.getState().requestsFull).toBe(true);
    expect(useView.getState().sideTab).toBe('requests');
    const filter = within(region).getByRole('searchbox', { name: 'Filter calls' });
    fireEvent.keyDown(filter, { key: 'R', shiftKey: true });
    expect(useView.getState().requestsFull).toBe(true);
    // Esc in the filter leaves the text box (the app's Escape), not the view; Esc elsewhere leaves the view.
    fireEvent.keyDown(filter, { key: 'Escape' });
    expect(useView.getState().requestsFull).toBe(true);
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(useView.getState().requestsFull).toBe(false);
    fireEvent.keyDown(document.body, { key: 'R', shiftKey: true });
    fireEvent.keyDown(document.body, { key: 'R', shiftKey: true });
    expect(useView.getState().requestsFull).toBe(false);
  });

  it('a row click in a sorted table still selects that call and moves the cursor to its cut', async () => {
    act(() => useView.getState().setRequestsView({ sort: { id: 'messageCount', desc: true } }));
    render(<RequestsPanel />);
    const region = screen.getByRole('region', { name: 'Requests' });
    const row = within(region).getAllByRole('row')[3];
    const call = requests()[Number(row.getAttribute('data-call'))];
    fireEvent.click(row);
    expect(useCursor.getState().index).toBe(call.cutIndex);
    await waitFor(() => expect(region.querySelector('.request-detail')!.textContent).toContain(`Call ${call.index + 1}`));
    expect(row.getAttribute('aria-selected')).toBe('true');
  });
});

describe('Requests cost column', () => {
  it('prices each call from the price table and changes with it', async () => {
    const { loadText } = await import('./harness.ts');
    const { generateLog } = await import('../../src/core/generate/generate-log.ts');
    const { usePrices } = await import('../../src/ui/charts/price-store.ts');
    await loadText(generateLog({ dialect: 'v4', seed: 6, turns: 2 }).text);
    render(<RequestsPanel />);
    const region = screen.getByRole('region', { name: 'Requests' });
    const costs = () => within(region).getAllByRole('row').slice(1).map((r) => r.lastElementChild?.textContent);
    const before = costs();
    expect(before.some((c) => c?.startsWith('$'))).toBe(true);
    const flash = usePrices.getState().table.findIndex((p) => p.model === 'deepseek-v4-flash');
    act(() => usePrices.getState().edit(flash, { output: 1000 }));
    await waitFor(() => expect(costs()).not.toEqual(before));
    act(() => usePrices.getState().reset());
  });
});
