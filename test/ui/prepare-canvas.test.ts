// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { prepareCanvas } from '../../src/ui/timeline/draw.ts';

/** A canvas that counts how often its bitmap is reallocated (a size set) or reset, and records the context calls. */
function fakeCanvas() {
  const calls: string[] = [];
  let width = 300;
  let height = 150;
  let sized = 0;
  const g = {
    reset: () => calls.push('reset'),
    setTransform: (...a: number[]) => calls.push(`setTransform ${a.join(',')}`),
    clearRect: (...a: number[]) => calls.push(`clearRect ${a.join(',')}`),
  };
  const canvas = {
    get width() { return width; }, set width(v: number) { width = v; sized++; },
    get height() { return height; }, set height(v: number) { height = v; sized++; },
    style: { width: '', height: '' },
    getContext: () => g,
  };
  return { canvas: canvas as unknown as HTMLCanvasElement, calls, sizes: () => sized };
}

describe('prepareCanvas', () => {
  it('sizes a canvas once and then only resets it while its size stays (no bitmap reallocated per draw)', () => {
    const dpr = window.devicePixelRatio || 1;
    const { canvas, calls, sizes } = fakeCanvas();
    prepareCanvas(canvas, 400, 50);
    expect([canvas.width, canvas.height]).toEqual([Math.floor(400 * dpr), Math.floor(50 * dpr)]);
    expect(canvas.style).toEqual({ width: '400px', height: '50px' });
    expect(sizes()).toBe(2);
    expect(calls).not.toContain('reset');
    calls.length = 0;
    for (let k = 0; k < 3; k++) prepareCanvas(canvas, 400, 50);
    expect(sizes()).toBe(2);
    // Each draw starts from a cleared bitmap and a fresh state, scaled for the screen.
    expect(calls).toEqual(Array.from({ length: 3 }, () => ['reset', `setTransform ${dpr},0,0,${dpr},0,0`, 'clearRect 0,0,400,50']).flat());
    // A new size resizes it.
    prepareCanvas(canvas, 401, 50);
    expect(sizes()).toBe(4);
    expect(canvas.style.width).toBe('401px');
  });
});
