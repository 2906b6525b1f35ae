// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { summarizeStream } from '../../src/core/messages/stream-summary.ts';
import { streamRuns } from '../../src/core/replay/stream-runs.ts';
import { useSession } from '../../src/store/session.ts';
import { useView } from '../../src/store/view.ts';
import { loadText } from './harness.ts';
import { EventList } from '../../src/ui/events/EventList.tsx';

afterEach(() => { cleanup(); useView.getState().setRawStreams(false); });

const text = generateLog({ dialect: 'v0', seed: 3, turns: 3, packChunks: true }).text;
const events = readLogText(text).events;

describe('streams as one row (issue #19)', () => {
  it('finds each streamed output as one run of consecutive chunks of a step, and sums it up', async () => {
    await loadText(text);
    const summary = useSession.getState().summary!;
    const runs = streamRuns(summary.columns, summary.count, summary.typeNames.indexOf('assistant/chunk'));
    expect(runs.length).toBeGreaterThan(2);
    for (let r = 0; r < runs.length; r += 2) {
      const members = events.slice(runs[r], runs[r + 1]);
      expect(members.every((e) => e.type === 'assistant/chunk' && e.data.turn === members[0].data.turn && e.data.step === members[0].data.step)).toBe(true);
      // Maximal: the events around the run are not chunks of the same step.
      for (const k of [runs[r] - 1, runs[r + 1]]) {
        const e = events[k];
        if (e) expect(e.type === 'assistant/chunk' && e.data.turn === members[0].data.turn && e.data.step === members[0].data.step).toBe(false);
      }
      const s = summarizeStream(members);
      expect(s.chunks).toBe(members.length);
      const said = members.filter((e) => e.data.chunk.type === 'text-delta').map((e) => e.data.chunk.text).join('');
      expect(s.text).toBe(said.slice(0, 160));
      const toolNames = members.filter((e) => e.data.chunk.type === 'tool-call-delta' && e.data.chunk.name).map((e) => e.data.chunk.name);
      expect(s.toolCalls.map((c) => c.name).filter(Boolean)).toEqual([...new Set(toolNames)]);
    }
  });

  it('folds each stream into one expandable row; raw chunks shows every delta again', async () => {
    await loadText(text);
    const summary = useSession.getState().summary!;
    const runs = streamRuns(summary.columns, summary.count, summary.typeNames.indexOf('assistant/chunk'));
    let folded = summary.count;
    for (let r = 0; r < runs.length; r += 2) folded -= runs[r + 1] - runs[r] - 1;
    render(<EventList />);
    const grid = screen.getByRole('grid');
    expect(Number(grid.getAttribute('aria-rowcount'))).toBe(folded);
    const first = runs[0];
    const size = runs[1] - runs[0];
    const row = await within(grid).findByRole('row', { name: new RegExp(`^stream of ${size} chunks, seq ${summary.columns.seq[first]} to`) });
    // Its preview comes from the worker: the stream's start, as the core sums it up.
    const s = summarizeStream(events.slice(runs[0], runs[1]));
    await waitFor(() => expect(row.textContent).toContain(s.text.slice(0, 20) || s.toolCalls[0]?.name || s.finish || ''));
    act(() => { fireEvent.click(within(row).getByRole('button', { name: 'Show the chunks' })); });
    await waitFor(() => expect(Number(grid.getAttribute('aria-rowcount'))).toBe(folded + size));
    act(() => { fireEvent.click(screen.getByLabelText(/raw chunks/)); });
    await waitFor(() => expect(Number(grid.getAttribute('aria-rowcount'))).toBe(summary.count));
    expect(within(grid).queryAllByRole('row', { name: /^stream of/ })).toHaveLength(0);
  });
});
