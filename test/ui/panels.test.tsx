// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { foldSurface } from '../../src/core/surface/fold.ts';
import { useCursor } from '../../src/store/cursor.ts';
import { useSession } from '../../src/store/session.ts';
import { DiagnosticsPanel } from '../../src/ui/diagnostics/DiagnosticsPanel.tsx';
import { EventList } from '../../src/ui/events/EventList.tsx';
import { EventInspector } from '../../src/ui/inspector/EventInspector.tsx';
import { ProjectionsPanel } from '../../src/ui/projections/ProjectionsPanel.tsx';
import { PromptPanel } from '../../src/ui/prompt/PromptPanel.tsx';
import { RequestsPanel } from '../../src/ui/requests/RequestsPanel.tsx';
import { Scrubber } from '../../src/ui/scrubber/Scrubber.tsx';
import { SurfacePanel } from '../../src/ui/surface/SurfacePanel.tsx';
import { Timeline } from '../../src/ui/timeline/Timeline.tsx';
import { Toolbar } from '../../src/ui/loading/Toolbar.tsx';
import { LoadStatus } from '../../src/ui/loading/LoadStatus.tsx';
import { loadText } from './harness.ts';

const text = generateLog({ dialect: 'v0', seed: 4, turns: 4, compactEvery: 2 }).text;
const session = foldSession(readLogText(text));

afterEach(cleanup);

describe('panels on a generated log (same engine as the worker, in process)', () => {
  let engine: Awaited<ReturnType<typeof loadText>>['engine'];
  beforeEach(async () => { ({ engine } = await loadText(text)); });

  it('Surface lists exactly the nodes the core folds at several cursors, with replace spans', async () => {
    for (const index of [10, Math.floor(session.events.length / 2), session.events.length - 1]) {
      act(() => useCursor.getState().seek(index));
      const { unmount } = render(<SurfacePanel />);
      const region = await waitFor(() => screen.getByRole('region', { name: 'Surface' }));
      const expected = foldSurface(session.events.slice(0, index + 1), session.read.dialect).state;
      await waitFor(() => expect(within(region).getByLabelText('Generations').textContent).toContain(`${expected.nodes.length} nodes`));
      expect(within(region).getByLabelText('Generations').textContent).toContain(`replaceGeneration ${expected.replaceGeneration}`);
      // The rows in view (the whole list fits the test's viewport) are the folded nodes, in order.
      await waitFor(() => {
        const nodes = within(region).getAllByRole('listitem').filter((li) => li.classList.contains('node') && !li.classList.contains('ghost'));
        expect(nodes.map((li) => Number(li.querySelector('.seq')!.textContent))).toEqual(expected.nodes.slice(0, nodes.length));
        expect(nodes.length).toBeGreaterThan(Math.min(expected.nodes.length, 5) - 1);
      });
      if (expected.replacements.some((r) => expected.nodes.includes(r.seq))) await waitFor(() => expect(within(region).getAllByLabelText(/^Replace span/).length).toBeGreaterThan(0));
      unmount();
    }
  });

  it('Surface toggles to the human transcript, which keeps shadowed messages', async () => {
    act(() => useCursor.getState().seek(session.events.length - 1));
    render(<SurfacePanel />);
    await waitFor(() => screen.getByRole('radio', { name: 'transcript' }));
    fireEvent.click(screen.getByRole('radio', { name: 'transcript' }));
    const list = await waitFor(() => screen.getByRole('list', { name: 'Transcript' }));
    const appended = session.events.filter((e) => e.surfaceOp === 'append');
    await waitFor(() => expect(within(list).getAllByRole('listitem').map((li) => Number(li.querySelector('.seq')!.textContent))).toEqual(appended.map((e) => e.seq).slice(0, within(list).getAllByRole('listitem').length)));
    expect(within(list).getAllByRole('listitem').length).toBeGreaterThan(10);
    await waitFor(() => expect(within(list).getAllByText(/shadowed by/).length).toBeGreaterThan(0));
  });

  it('Events search wraps around past the last match, and says when nothing matches', async () => {
    const last = session.events.length - 1;
    act(() => useCursor.getState().seek(last));
    render(<EventList />);
    const input = screen.getByRole('textbox', { name: 'Find events' });
    const first = session.events.findIndex((e) => e.type === 'turn/start');
    fireEvent.change(input, { target: { value: 'turn/start' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(useCursor.getState().index).toBe(first));
    fireEvent.change(input, { target: { value: 'no such text in this log' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('no match'));
    expect(useCursor.getState().index).toBe(first);
  });

  it('Events shows rows from the worker and a click moves the cursor', async () => {
    act(() => useCursor.getState().seek(0));
    render(<EventList />);
    const region = screen.getByRole('region', { name: 'Events' });
    await waitFor(() => expect(within(region).getAllByRole('row').length).toBeGreaterThan(5));
    const row = within(region).getAllByRole('row')[3];
    act(() => { fireEvent.click(row); });
    expect(useCursor.getState().index).toBe(3);
    expect(row.textContent).toContain(session.events[3].type);
  });

  it('Event detail links sourceEventSeqs and replace endpoints to the cursor', async () => {
    const replace = session.surface.replacements[0];
    const index = session.events.findIndex((e) => e.seq === replace.seq);
    act(() => useCursor.getState().seek(index));
    render(<EventInspector />);
    const region = screen.getByRole('region', { name: 'Event detail' });
    await waitFor(() => expect(region.textContent).toContain(`seq ${replace.seq}`));
    fireEvent.click(within(region).getAllByRole('button', { name: String(replace.shadowedSeqs[0]) })[0]);
    expect(session.events[useCursor.getState().index].seq).toBe(replace.shadowedSeqs[0]);
  });

  it('Scrubber: the Replay cursor slider reports the cursor seq', () => {
    act(() => useCursor.getState().seek(7));
    render(<Scrubber />);
    const slider = screen.getByRole('slider', { name: 'Replay cursor' });
    expect(slider.getAttribute('aria-valuenow')).toBe(String(session.events[7].seq));
    fireEvent.change(slider, { target: { value: '12' } });
    expect(useCursor.getState().index).toBe(12);
  });

  it('Projections shows one card per unit with its watermark', async () => {
    act(() => useCursor.getState().seek(session.events.length - 1));
    const units = engine.projectionsAtIndex(session.events.length - 1);
    render(<ProjectionsPanel />);
    const region = await waitFor(() => screen.getByRole('region', { name: 'Projections' }));
    expect(within(region).getAllByRole('article').length).toBe(units.length);
    expect(within(region).getByRole('article', { name: 'Projection title' }).textContent).toMatch(/watermark \d+/);
  });

  it('System prompt, Runtime context and Requests follow the cursor', async () => {
    act(() => useCursor.getState().seek(session.events.length - 1));
    render(<><PromptPanel /><RequestsPanel /></>);
    await waitFor(() => screen.getByRole('region', { name: 'System prompt' }));
    expect(screen.getByRole('region', { name: 'Runtime context' }).textContent).toMatch(/Runtime-context snapshots \(\d+\)/);
    const requests = screen.getByRole('region', { name: 'Requests' });
    expect(within(requests).getAllByRole('row').length - 1).toBe(useSession.getState().summary!.requests.length);
    await waitFor(() => expect(requests.textContent).toMatch(/Call \d+/));
  });

  it('Timeline names its events and replace spans', () => {
    render(<Timeline />);
    expect(screen.getByRole('img', { name: /Timeline of [\d,]+ events \+ 1 synthetic, \d+ replace spans/ })).toBeTruthy();
  });
});

describe('Diagnostics on a broken log', () => {
  it('groups findings by severity and links them to their seq', async () => {
    const broken = text.split('\n');
    broken.splice(5, 0, '{"type":"future/thing","seq":999,"time":1,"data":{}}');
    broken.splice(9, 0, '{not json');
    await loadText(broken.join('\n'));
    render(<DiagnosticsPanel />);
    const region = screen.getByRole('region', { name: 'Diagnostics' });
    expect(within(region).getByText(/DSH would refuse this log/)).toBeTruthy();
    expect(within(region).getByText(/Errors \(\d+\)/)).toBeTruthy();
    expect(within(region).getAllByText('row.seq-gap').length).toBeGreaterThan(0);
    // A row that never became an event still links to the event after its line.
    const unparsable = within(region).getByText('row.unparsable').closest('[role=listitem]') as HTMLElement;
    const link = within(unparsable).getByRole('button', { name: /^line 10/ });
    expect((link as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(link);
    expect(useCursor.getState().index).toBeGreaterThan(0);
  });
});

describe('Diagnostics: the load line', () => {
  it('says how much of the load waited for the log\'s bytes, once that shows at a tenth of a second', async () => {
    await loadText(text);
    const loaded = useSession.getState().summary!;
    const lineWith = (waits: { sourceWaitMs?: number }) => {
      act(() => useSession.setState({ summary: { ...loaded, loadMs: 2400, ...waits } }));
      render(<DiagnosticsPanel />);
      const line = screen.getByLabelText('Load time').textContent;
      cleanup();
      return line;
    };
    const rest = ' · projections folded by the load';
    expect(lineWith({ sourceWaitMs: 310 })).toBe(`opened in 2.4 s (0.3 s of it waiting for the log's bytes)${rest}`);
    expect(lineWith({ sourceWaitMs: 20 })).toBe(`opened in 2.4 s${rest}`);
    expect(lineWith({})).toBe(`opened in 2.4 s${rest}`);
  });

  it('gives the exact time on hover', async () => {
    await loadText(text);
    act(() => useSession.setState({ summary: { ...useSession.getState().summary!, loadMs: 3912.4 } }));
    render(<DiagnosticsPanel />);
    expect(screen.getByLabelText('Load time').getAttribute('title')).toBe('3,912 ms');
    expect(screen.getByLabelText('Load time').textContent).toMatch(/^opened in 3\.9 s/);
  });
});

describe('What would DSH admit? (V4 log)', () => {
  it('shows the decision-table row and the commits at the cursor', async () => {
    const { engine } = await loadText(generateLog({ dialect: 'v4', seed: 2, turns: 2 }).text, 'v4.jsonl');
    const { AdmissionBox } = await import('../../src/ui/prompt/AdmissionBox.tsx');
    act(() => useCursor.getState().seek(useSession.getState().summary!.count - 1));
    render(<AdmissionBox />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Rendered prompt' }), { target: { value: 'A brand new prompt' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check at cursor' }));
    const status = await screen.findByRole('status');
    const expected = engine.admit(useCursor.getState().index, 'A brand new prompt', { inHistory: false, startsSeries: false });
    expect(status.textContent).toContain(`Row ${expected.row} fired`);
    expect(within(status).queryAllByRole('listitem')).toHaveLength(expected.commits.length);
    expect(expected.commits.some((c) => c.role === 'head')).toBe(true);
  });
});

describe('Verdict wording: refused, newer than this app, not a DSH log (issue #16)', () => {
  const lines = generateLog({ dialect: 'v4', seed: 6, turns: 2 }).text.split('\n');
  /** The v4 log with its row at `line` (1-based) replaced. */
  const withRow = (line: number, edit: (row: any) => any) => lines.map((l, i) => (i === line - 1 ? JSON.stringify(edit(JSON.parse(l))) : l)).join('\n');
  const shown = async (text: string) => {
    await loadText(text);
    render(<><Toolbar /><DiagnosticsPanel /></>);
    const badge = document.querySelector('.verdict-badge');
    const verdict = within(screen.getByRole('region', { name: 'Diagnostics' })).getByRole('status', { name: 'Verdict' });
    return { badge: badge?.textContent ?? null, title: badge?.getAttribute('title') ?? null, verdict: verdict.textContent ?? '' };
  };

  it('a log with an unknown required type: "newer than this app", naming the type and what the app knows', async () => {
    const { badge, title, verdict } = await shown(withRow(6, (r) => ({ ...r, type: 'future/feature' })));
    expect(badge).toBe('newer than this app');
    expect(title).toMatch(/uses future\/feature/);
    expect(verdict).toMatch(/This log is newer than this app/);
    expect(verdict).toMatch(/partial from seq 4/);
    expect(verdict).toMatch(/this app follows DSH 0\.1\.0-rc\.8 … 0\.2\.1-alpha\.2 and 0\.2\.1-rc\.2's background jobs, session formats 0–4/);
    expect(verdict).not.toMatch(/refuse/);
  });

  it('a log that breaks a DSH rule: "refused by DSH"', async () => {
    const { badge, verdict } = await shown(withRow(6, (r) => ({ ...r, seq: r.seq + 5 })));
    expect(badge).toBe('refused by DSH');
    expect(verdict).toMatch(/DSH would refuse this log.*seq gap/);
  });

  it('event rows with no session header: opened, "not a DSH log"', async () => {
    const { badge, verdict } = await shown(lines.slice(1).join('\n'));
    expect(badge).toBe('not a DSH log');
    expect(verdict).toMatch(/Not a DSH session log: corrupt session log: first line is not a session header/);
  });

  it('a file with nothing DSH-like in it: not opened, and the message says it is not a DSH log', async () => {
    await loadText(generateLog({ dialect: 'v4', seed: 6, turns: 1 }).text);
    await useSession.getState().open({ kind: 'text', text: '{"role":"user","content":"hello"}\n', name: 'chat.jsonl' });
    render(<LoadStatus />);
    expect(screen.getByRole('alert').textContent).toMatch(/Could not open chat\.jsonl: Not a DSH session log: .*first line is a \{"type":"session"\} header/);
    // The log that was open stays open.
    expect(useSession.getState().summary?.verdict.kind).toBe('ok');
  });

  it('a clean 0.2.1-shaped log: no badge, and the panel says DSH would restore it and which DSH it needs', async () => {
    const { badge, verdict } = await shown(generateLog({ dialect: 'v4', dsh021: true, seed: 6, turns: 2 }).text);
    expect(badge).toBeNull();
    expect(verdict).toMatch(/DSH would restore this log.*needs DSH 0\.2\.1-alpha\.2 or later/);
  });
});
