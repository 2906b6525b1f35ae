// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { pairToolCalls } from '../../src/core/replay/tool-pairs.ts';
import { useCursor } from '../../src/store/cursor.ts';
import { useSession } from '../../src/store/session.ts';
import { loadText } from './harness.ts';
import { EventList } from '../../src/ui/events/EventList.tsx';

afterEach(cleanup);

const text = generateLog({ dialect: 'v4', seed: 12, turns: 3 }).text;
const events = readLogText(text).events;

describe('tool calls paired with their results (issue #19)', () => {
  it('pairs each call with the result whose sourceEventSeqs name it, with status and time', () => {
    const names = [...new Set(events.map((e) => e.type))];
    const pairs = pairToolCalls(events.length, events.map((e) => names.indexOf(e.type)), names, (i) => events[i], (seq) => events.findIndex((e) => e.seq === seq));
    const calls = events.flatMap((e, i) => (e.type === 'tool/call' ? [i] : []));
    expect(pairs.callCount).toBe(calls.length);
    for (const c of calls) {
      const p = pairs.ofCall(c)!;
      expect(p.name).toBe(events[c].data.name);
      if (p.result < 0) continue;
      const r = events[p.result];
      expect(r.type).toBe('tool/result');
      expect(r.sourceEventSeqs).toContain(events[c].seq);
      expect(p.ms).toBe(r.time - events[c].time);
      expect(p.isError).toBe(r.data.message.isError === true);
      expect(pairs.ofResult(p.result)).toEqual(p);
    }
    expect(pairs.answeredCount).toBeGreaterThan(0);
  });

  it('a call\'s row shows its result\'s status and time, and one click goes to the result', async () => {
    await loadText(text);
    const call = events.findIndex((e) => e.type === 'tool/call');
    act(() => useCursor.getState().seek(call));
    render(<EventList />);
    const grid = screen.getByRole('grid');
    const row = await within(grid).findByRole('row', { current: 'step' });
    const badge = await within(row).findByTitle(/answered by the result at event (\d+)/, {}, { timeout: 3000 });
    const result = Number(/event (\d+)/.exec(badge.getAttribute('title')!)![1]);
    expect(events[result].type).toBe('tool/result');
    expect(badge.textContent).toMatch(/^→ (ok|error)/);
    fireEvent.click(badge);
    await waitFor(() => expect(useCursor.getState().index).toBe(result));
    expect(useSession.getState().summary).not.toBeNull();
  });
});
