// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { useCursor } from '../../src/store/cursor.ts';
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
