// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { generateFork, generateLog } from '../../src/core/generate/generate-log.ts';
import { indexOfSeq } from '../../src/core/replay/seq-index.ts';
import { useCursor } from '../../src/store/cursor.ts';
import { useSession } from '../../src/store/session.ts';
import { useView } from '../../src/store/view.ts';
import { EventInspector } from '../../src/ui/inspector/EventInspector.tsx';
import { ProjectionsPanel } from '../../src/ui/projections/ProjectionsPanel.tsx';
import { RequestsPanel } from '../../src/ui/requests/RequestsPanel.tsx';
import { SurfacePanel } from '../../src/ui/surface/SurfacePanel.tsx';
import { SidePanel } from '../../src/ui/shell/SidePanel.tsx';
import { DiagnosticsPanel } from '../../src/ui/diagnostics/DiagnosticsPanel.tsx';
import { Toolbar } from '../../src/ui/loading/Toolbar.tsx';
import { header, jsonl } from '../helpers/log-builder.ts';
import { repeatedWrites } from '../helpers/repeated-writes.ts';
import { inProcessClient, loadText } from './harness.ts';

afterEach(cleanup);

const generated = generateLog({ dialect: 'v0', seed: 4, turns: 4, compactEvery: 2 });

describe('value changes vs writes, in the Projections panel (issue #17)', () => {
  it('a write of an equal value is marked apart from a change, and a change shows what changed', async () => {
    await loadText(jsonl([header(), ...repeatedWrites]));
    act(() => useCursor.getState().seek(2));
    const { unmount } = render(<ProjectionsPanel />);
    let card = await waitFor(() => screen.getByRole('article', { name: 'Projection todos' }));
    await waitFor(() => expect(card.textContent).toContain('written, unchanged'));
    expect(card.textContent).not.toContain('changed here');
    expect(card.classList.contains('changed')).toBe(false);
    expect(within(card).getByRole('img', { name: 'todos changes: 2 value changes, 2 writes of an equal value' })).toBeTruthy();
    unmount();
    act(() => useCursor.getState().seek(4));
    render(<ProjectionsPanel />);
    card = await waitFor(() => screen.getByRole('article', { name: 'Projection todos' }));
    await waitFor(() => expect(card.textContent).toContain('changed here'));
    const diff = within(card).getByRole('list', { name: 'What changed' });
    expect([...diff.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      '+ [pending] Add a test',
      '✎ Reproduce the bug: in_progress → completed',
      '✎ Fix it: pending → in_progress',
    ]);
    // The previous / next change buttons skip the equal writes.
    fireEvent.click(within(card).getByRole('button', { name: 'Previous change of todos' }));
    expect(useCursor.getState().index).toBe(1);
  });
});

describe('messages read as text, and state → request', () => {
  it('Event detail shows a tool result as text under its call, with nothing to expand', async () => {
    await loadText(generated.text);
    const k = generated.events.findIndex((e) => e.type === 'tool/result');
    const event = generated.events[k];
    const text = event.data.message.content[0].content[0].text as string;
    act(() => useCursor.getState().seek(k));
    render(<EventInspector />);
    const region = screen.getByRole('region', { name: 'Event detail' });
    await waitFor(() => expect(within(region).getByText(text.split('\n')[0], { exact: false }).tagName).toBe('PRE'));
    const call = generated.events.find((e) => e.seq === event.sourceEventSeqs![0])!;
    expect(region.querySelector('.msg-result-head')!.textContent).toContain(`← result of ${call.data.name}`);
    // The change it made is seen by the next model call.
    const summary = useSession.getState().summary!;
    const next = summary.requests.find((r) => r.cutIndex > k)!;
    fireEvent.click(within(region).getByRole('button', { name: new RegExp(`seen by call ${next.index + 1} \\(cut seq ${next.cut}\\)`) }));
    expect(useCursor.getState().index).toBe(next.cutIndex);
    expect(useView.getState().sideTab).toBe('requests');
  });

  it('a click on a request row selects it and moves the cursor to its cut', async () => {
    await loadText(generated.text);
    const summary = useSession.getState().summary!;
    act(() => useCursor.getState().seek(0));
    render(<RequestsPanel />);
    const region = screen.getByRole('region', { name: 'Requests' });
    const target = summary.requests[3];
    const row = within(region).getAllByRole('row').find((r) => r.getAttribute('aria-rowindex') === String(target.index + 2))!;
    fireEvent.click(row);
    expect(useCursor.getState().index).toBe(target.cutIndex);
    await waitFor(() => expect(region.querySelector('.request-detail')!.textContent).toContain(`Call ${target.index + 1}`));
    await waitFor(() => expect(within(region).getAllByRole('article').length).toBeGreaterThan(0));
  });

  it('the surface at a call\'s cut marks the messages that call added', async () => {
    const { engine } = await loadText(generated.text);
    const summary = useSession.getState().summary!;
    const call = summary.requests.find((r) => r.index > 0 && r.extendsPrevious)!;
    const added = engine.request(call.index, { from: 0, count: 0 }).messageDiff!.added;
    expect(added.length).toBeGreaterThan(0);
    act(() => useCursor.getState().seek(call.cutIndex));
    render(<SurfacePanel />);
    const region = screen.getByRole('region', { name: 'Surface' });
    await waitFor(() => expect(region.textContent).toContain(`call ${call.index + 1} is cut here`));
    const marked = [...region.querySelectorAll('.node.call-added')].map((n) => n.getAttribute('title'));
    expect(marked).toEqual(added.map((id) => `message ${id}`));
  });
});

describe('counts agree', () => {
  it('the header says "N events + 1 synthetic"; the Diagnostics tab counts what its filter calls "all"', async () => {
    const lines = generated.text.split('\n');
    lines.splice(5, 0, '{"type":"future/thing","seq":999,"time":1,"data":{}}');
    await loadText(lines.join('\n'));
    const summary = useSession.getState().summary!;
    render(<><Toolbar /><SidePanel /></>);
    expect(document.querySelector('.session-name')!.textContent).toContain(`${(summary.count - summary.syntheticCount).toLocaleString()} events + ${summary.syntheticCount} synthetic`);
    const tab = screen.getByRole('tab', { name: /Diagnostics/ });
    expect(tab.textContent).toBe(`Diagnostics (${summary.diagnostics.length})`);
    cleanup();
    render(<DiagnosticsPanel />);
    expect(screen.getByRole('option', { name: `all (${summary.diagnostics.length})` })).toBeTruthy();
  });
});

describe('a workspace of a parent and a forked child', () => {
  const { parent, child } = generateFork({ dialect: 'v0', seed: 8, turns: 4, afterTurn: 2, childTurns: 1 });

  it('each session keeps its cursor and search; "↑ parent" lands at the fork; the parent links to the child', async () => {
    const { client } = inProcessClient();
    useSession.setState({ client, summary: null, workspace: [], error: null, status: 'idle' });
    await useSession.getState().openMany([
      { kind: 'text', text: child.text, name: 'child.jsonl' },
      { kind: 'text', text: parent.text, name: 'parent.jsonl' },
    ]);
    const s = () => useSession.getState();
    expect(s().summary!.name).toBe('parent.jsonl');
    await waitFor(() => expect(s().children).toHaveLength(1));
    const seedLength = JSON.parse(child.text.slice(0, child.text.indexOf('\n'))).seedLength as number;
    expect(s().children[0].seq).toBe(seedLength - 1);
    act(() => useCursor.getState().seek(40));
    useView.getState().setSearch('turn/start');
    // The child opens at its own first event, with its own (empty) search.
    await act(() => s().openChild(s().children[0].entry));
    expect(s().summary!.name).toBe('child.jsonl');
    expect(s().summary!.inherited.seq).toBe(seedLength);
    expect(s().summary!.columns.seq[useCursor.getState().index]).toBe(seedLength);
    expect(useView.getState().search).toBe('');
    act(() => useCursor.getState().seek(seedLength + 5));
    // ↑ parent: the parent at the last event the child inherited.
    await act(() => s().openParent());
    expect(s().summary!.name).toBe('parent.jsonl');
    expect(s().summary!.columns.seq[useCursor.getState().index]).toBe(seedLength - 1);
    expect(useView.getState().search).toBe('turn/start');
    // Back to the child by the switcher: where it was left.
    await act(() => s().switchTo(s().workspace.findIndex((w) => w.source.name === 'child.jsonl')));
    expect(useCursor.getState().index).toBe(seedLength + 5);
    // The parent's event at the fork links to the child; the child's inherited events are marked.
    render(<EventInspector />);
    act(() => useCursor.getState().seek(3));
    await waitFor(() => expect(screen.getByRole('region', { name: 'Event detail' }).textContent).toContain('inherited from parent'));
    cleanup();
    await act(() => s().openParent());
    act(() => useCursor.getState().seek(indexOfSeq(s().summary!.columns.seq, seedLength - 1)));
    render(<EventInspector />);
    const link = await waitFor(() => screen.getByRole('button', { name: /forked child session child\.jsonl/ }));
    fireEvent.click(link);
    await waitFor(() => expect(s().summary!.name).toBe('child.jsonl'));
  });
});
