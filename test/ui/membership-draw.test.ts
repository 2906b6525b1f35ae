// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { buildMembership, type Membership } from '../../src/core/replay/membership.ts';
import { xOf, type TimelineView } from '../../src/ui/timeline/draw.ts';
import { drawMembershipBars, laneLayout, MEMBERSHIP_COLORS } from '../../src/ui/timeline/membership-draw.ts';
import { Engine } from '../../src/worker/engine.ts';

/** A canvas that paints each fillRect into a grid of whole pixels (the rects drawn here are whole pixels). */
function gridCanvas(width: number, height: number): { canvas: HTMLCanvasElement; grid: string[]; rects: number } {
  const out = { grid: new Array<string>(width * height).fill(''), rects: 0, canvas: null as unknown as HTMLCanvasElement };
  const g = {
    fillStyle: '', setTransform() {}, clearRect() {}, beginPath() {}, rect() { throw new Error('a bar drawn as a sub-pixel rect'); }, fill() {},
    fillRect(x: number, y: number, w: number, h: number) {
      out.rects++;
      expect([x, y, w, h].every(Number.isInteger)).toBe(true);
      for (let r = y; r < y + h; r++) for (let c = x; c < x + w; c++) out.grid[r * width + c] = g.fillStyle;
    },
  };
  out.canvas = { width: 0, height: 0, style: {}, getContext: () => g } as unknown as HTMLCanvasElement;
  return out;
}

/** The oracle: every bar paints the pixels of its row it touches, one by one (the replacing bars last, on top). */
function paintedByBars(m: Membership, view: TimelineView, width: number, height: number): string[] {
  const grid = new Array<string>(width * height).fill('');
  const { pitch } = laneLayout(m.rows);
  const replacing = new Set(m.links.node);
  for (const [color, mine] of [[MEMBERSHIP_COLORS.bar(false), (k: number) => !replacing.has(k)], [MEMBERSHIP_COLORS.replacing(false), (k: number) => replacing.has(k)]] as const) {
    for (let k = 0; k < m.nodes; k++) {
      if (!mine(k)) continue;
      const a = xOf(view, width, m.enter[k]);
      const b = xOf(view, width, m.leave[k]);
      if (b < 0 || a > width) continue;
      const r = Math.min(height - 1, Math.floor(m.row[k] * pitch));
      for (let c = 0; c < width; c++) {
        // Touched: the bar's span meets the pixel, or the bar is narrower than a pixel and starts in it.
        const touched = (a < c + 1 && b > c) || (c === Math.min(width - 1, Math.max(0, Math.floor(a))));
        if (touched) grid[r * width + c] = color;
      }
    }
  }
  return grid;
}

describe('the membership lane of a long session (issue #15)', () => {
  it('draws rows thinner than a pixel as the pixels their bars cover, the same as painting bar by bar', async () => {
    // No compaction for a long stretch: hundreds of rows in an 80-pixel lane.
    const text = generateLog({ dialect: 'v4', seed: 9, turns: 40, compactEvery: 0 }).text;
    const summary = await new Engine().load({ kind: 'text', text, name: 'long.jsonl' }, () => {});
    const m = buildMembership({ seq: summary.columns.seq, surfaceChange: summary.columns.surfaceChange, count: summary.count, replacements: summary.replacements });
    const layout = laneLayout(m.rows);
    expect(layout.pitch).toBeLessThan(0.5);
    expect(m.links.node.length).toBeGreaterThan(0);
    const height = Math.ceil(layout.height);
    const n = summary.count;
    for (const [view, width] of [[{ start: 0, end: n }, 700], [{ start: 0, end: n }, 97], [{ start: n * 0.3 + 0.4, end: n * 0.45 }, 640], [{ start: n - 40.5, end: n + 3 }, 300]] as const) {
      const drawn = gridCanvas(width, height);
      drawMembershipBars(drawn.canvas, m, view, width, false);
      expect(drawn.grid).toEqual(paintedByBars(m, view, width, height));
      // Runs of pixels, not a rect per bar.
      expect(drawn.rects).toBeLessThan(m.nodes);
    }
  });
});
