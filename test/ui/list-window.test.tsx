// @vitest-environment jsdom
import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Virtualizer } from '@tanstack/react-virtual';
import { useListWindow } from '../../src/ui/hooks/useListWindow.ts';
import type { ListWindow } from '../../src/worker/protocol.ts';

/** A virtualizer that shows rows first..last (all the hook reads of one). */
const showing = (first: number, last: number) => ({
  getVirtualItems: () => Array.from({ length: last - first + 1 }, (_, k) => ({ index: first + k })),
}) as unknown as Virtualizer<HTMLDivElement, Element>;

describe('useListWindow: the rows a virtual list asks the worker for', () => {
  it('asks again only when the rows in view leave the window asked for, then with room either side', () => {
    const asks: ListWindow[] = [];
    let asked: ListWindow = { from: 0, count: 80 };
    const onWindow = (w: ListWindow) => { asks.push(w); asked = w; };
    const { rerender } = renderHook(({ v, w }) => useListWindow(v, 12, onWindow, w), { initialProps: { v: showing(0, 30), w: asked } });
    expect(asks).toEqual([]);
    // A surface growing by a node a step scrolls a row a step: inside the window, nothing new is asked.
    for (let k = 1; k <= 49; k++) rerender({ v: showing(k, 30 + k), w: asked });
    expect(asks).toEqual([]);
    // The last row in view leaves the window: one ask, twice the overscan either side.
    rerender({ v: showing(50, 80), w: asked });
    expect(asks).toEqual([{ from: 26, count: 79 }]);
    for (let k = 51; k <= 60; k++) rerender({ v: showing(k, 30 + k), w: asked });
    expect(asks).toHaveLength(1);
    // A window reset by its owner (a new log) is left as soon as the rows in view are not in it.
    asked = { from: 0, count: 80 };
    rerender({ v: showing(60, 90), w: asked });
    expect(asks.at(-1)).toEqual({ from: 36, count: 79 });
  });

  it('without a window to compare with, asks for the rows in view and the overscan whenever they change', () => {
    const asks: ListWindow[] = [];
    const onWindow = (w: ListWindow) => { asks.push(w); };
    const { rerender } = renderHook(({ v }) => useListWindow(v, 12, onWindow), { initialProps: { v: showing(0, 30) } });
    rerender({ v: showing(1, 31) });
    expect(asks).toEqual([{ from: 0, count: 43 }, { from: 0, count: 44 }]);
  });
});
