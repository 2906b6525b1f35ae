// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { useView } from '../../src/store/view.ts';
import { loadText } from './harness.ts';
import { EventList } from '../../src/ui/events/EventList.tsx';

afterEach(() => { cleanup(); useView.getState().setRawStreams(false); });

/** The events list's time column: each event's logged time, however the page's column stores it. */
describe('event times in the events list', () => {
  const log = generateLog({ dialect: 'v0', seed: 6, turns: 1, stepsPerTurn: 2 });

  /** hh:mm:ss.mmm (UTC) of each row the list drew, by seq. */
  function shownTimes(): Map<number, string> {
    const out = new Map<number, string>();
    for (const row of within(screen.getByRole('grid')).getAllByRole('row')) {
      const seq = row.querySelector('.seq')?.textContent;
      const time = row.querySelector('.time')?.textContent;
      if (seq && time) out.set(Number(seq), time);
    }
    return out;
  }

  it('shows each event at its logged time', async () => {
    useView.getState().setRawStreams(true);
    await loadText(log.text);
    render(<EventList />);
    const shown = shownTimes();
    expect(shown.size).toBeGreaterThan(5);
    for (const e of readLogText(log.text).events) {
      if (shown.has(e.seq)) expect(shown.get(e.seq)).toBe(new Date(e.time).toISOString().slice(11, 23));
    }
  });

  it('draws a time past what a Date holds as its number, the other rows as before', async () => {
    useView.getState().setRawStreams(true);
    const rows = log.lines.slice(1).map((l) => JSON.parse(l) as { seq: number; time: number });
    rows[2].time = 9_000_000_000_000_000;
    const text = [log.lines[0], ...rows.map((r) => JSON.stringify(r))].join('\n') + '\n';
    await loadText(text);
    render(<EventList />);
    const shown = shownTimes();
    expect(shown.get(rows[2].seq)).toBe('9000000000000000');
    expect(shown.get(rows[0].seq)).toBe(new Date(rows[0].time).toISOString().slice(11, 23));
  });
});
