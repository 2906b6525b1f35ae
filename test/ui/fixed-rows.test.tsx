// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useFixedRows, useKeepFixedRowInView } from '../../src/ui/hooks/useFixedRows.ts';

const ROW = 22;

/** A list of `count` fixed rows that keeps `follow` in view, as the events list does. */
function List({ count, follow }: { count: number; follow: number }) {
  const scroller = useRef<HTMLDivElement>(null);
  const { rows, totalSize, viewport } = useFixedRows(scroller, count, ROW, 5, 220);
  useKeepFixedRowInView(scroller, viewport, follow, count, ROW);
  return (
    <div ref={scroller} data-testid="scroller">
      <div data-testid="inner" style={{ height: totalSize }}>
        {rows.map((r) => <div key={r.index} data-row={r.index} style={{ transform: `translateY(${r.start}px)` }} />)}
      </div>
    </div>
  );
}

const shown = (c: HTMLElement) => [...c.querySelectorAll('[data-row]')].map((e) => Number(e.getAttribute('data-row')));
const frame = () => act(() => new Promise<void>((r) => requestAnimationFrame(() => r())));
const range = (a: number, b: number) => Array.from({ length: b - a }, (_, k) => a + k);

describe('fixed-height rows (the events list on a 1M-event log)', () => {
  afterEach(cleanup);
  it('draws the rows in view and the overscan, placed by arithmetic, and the whole height', () => {
    const { container, getByTestId } = render(<List count={1_000_000} follow={-1} />);
    // 220 px is 10 rows, and 5 below.
    expect(shown(container)).toEqual(range(0, 15));
    expect(getByTestId('inner').style.height).toBe(`${22_000_000}px`);
    expect(container.querySelector('[data-row="7"]')!.getAttribute('style')).toContain(`translateY(${7 * ROW}px)`);
  });

  it('follows the scroller: a scroll far down draws the rows there', () => {
    const { container, getByTestId } = render(<List count={1_000_000} follow={-1} />);
    const el = getByTestId('scroller');
    act(() => { el.scrollTop = 500_000 * ROW + 5; el.dispatchEvent(new Event('scroll')); });
    expect(shown(container)).toEqual(range(499_995, 500_016));
  });

  it('a short list draws only its rows', () => {
    const { container } = render(<List count={3} follow={-1} />);
    expect(shown(container)).toEqual([0, 1, 2]);
  });

  it('keeps the followed row in view at the nearer edge, and leaves the view when the row is in it', async () => {
    const { getByTestId, rerender } = render(<List count={1_000_000} follow={0} />);
    const el = getByTestId('scroller');
    await frame();
    expect(el.scrollTop).toBe(0);
    // Below the view: its bottom at the bottom.
    rerender(<List count={1_000_000} follow={600_000} />);
    await frame();
    expect(el.scrollTop).toBe(600_001 * ROW - 220);
    act(() => { el.dispatchEvent(new Event('scroll')); });
    // One row on, still below: the view moves one row.
    rerender(<List count={1_000_000} follow={600_001} />);
    await frame();
    expect(el.scrollTop).toBe(600_002 * ROW - 220);
    act(() => { el.dispatchEvent(new Event('scroll')); });
    // A row in view: no scroll.
    rerender(<List count={1_000_000} follow={599_995} />);
    await frame();
    expect(el.scrollTop).toBe(600_002 * ROW - 220);
    // Above the view: its top at the top.
    rerender(<List count={1_000_000} follow={10} />);
    await frame();
    expect(el.scrollTop).toBe(10 * ROW);
  });
});
