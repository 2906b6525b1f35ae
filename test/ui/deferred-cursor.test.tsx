// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { useCursor } from '../../src/store/cursor.ts';
import { useSession } from '../../src/store/session.ts';
import { DeferredCursorProvider, useDeferredCursor, useDeferredSelected } from '../../src/ui/hooks/useDeferredCursor.ts';

afterEach(cleanup);

/** A panel that records each render and the cursor it rendered with. */
function probe(seen: number[][]) {
  return function Panel() {
    const index = useDeferredCursor();
    const selected = useDeferredSelected();
    seen.push([index, selected]);
    return createElement('span', null, `${index}/${selected}`);
  };
}

describe('the deferred cursor', () => {
  it('reaches a panel under the provider once per step, with the new cursor', () => {
    useCursor.getState().setCount(100);
    useCursor.getState().reset(3);
    const seen: number[][] = [];
    const Panel = probe(seen);
    const { container } = render(createElement(DeferredCursorProvider, null, createElement(Panel)));
    expect(seen).toEqual([[3, 3]]);
    act(() => useCursor.getState().seek(7));
    expect(container.textContent).toBe('7/7');
    // One render for the step, not a first one with the old cursor before it.
    expect(seen.slice(1)).toEqual([[7, 7]]);
  });

  it('a panel shown for a log just opened starts at that log\'s cursor, not at the last one\'s', () => {
    useCursor.getState().setCount(100);
    useCursor.getState().reset(3);
    const seen: number[][] = [];
    const Panel = probe(seen);
    const before = useSession.getState().loads;
    // As the page shows its panels once a log is open.
    const Shown = () => (useSession((s) => s.loads) > before ? createElement(Panel) : null);
    render(createElement(DeferredCursorProvider, null, createElement(Shown)));
    // As a load ends: the cursor reset and the load counted in one update.
    act(() => {
      useCursor.getState().reset(90);
      useSession.setState({ loads: before + 1 });
    });
    expect(seen).toEqual([[90, 90]]);
  });

  it('a panel rendered alone defers the cursor itself (rendered again with the old value first)', () => {
    useCursor.getState().setCount(100);
    useCursor.getState().reset(3);
    const seen: number[][] = [];
    const { container } = render(createElement(probe(seen)));
    act(() => useCursor.getState().seek(7));
    expect(container.textContent).toBe('7/7');
    expect(seen.at(-1)).toEqual([7, 7]);
    expect(seen.length).toBeGreaterThan(2);
  });
});
