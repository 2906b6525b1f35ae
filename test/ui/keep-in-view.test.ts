import { describe, expect, it } from 'vitest';
import { offsetToShow } from '../../src/ui/hooks/useKeepInView.ts';

describe('offsetToShow (a list follows the cursor to the nearer edge)', () => {
  it('leaves a row that is in view where it is', () => {
    expect(offsetToShow(100, 124, 90, 300)).toBeNull();
    expect(offsetToShow(90, 114, 90, 300)).toBeNull();
    expect(offsetToShow(366, 390, 90, 300)).toBeNull();
  });
  it('scrolls up to a row above the view, its top at the top', () => {
    expect(offsetToShow(40, 64, 90, 300)).toBe(40);
    expect(offsetToShow(80, 104, 90, 300)).toBe(80);
  });
  it('scrolls down to a row below the view, its bottom at the bottom', () => {
    expect(offsetToShow(380, 404, 90, 300)).toBe(104);
    expect(offsetToShow(1000, 1024, 90, 300)).toBe(724);
  });
  it('shows a row taller than the view from its top', () => {
    expect(offsetToShow(0, 500, 10, 300)).toBe(0);
    expect(offsetToShow(0, 500, 0, 300)).toBeNull();
    expect(offsetToShow(600, 1000, 0, 300)).toBe(600);
  });
});
