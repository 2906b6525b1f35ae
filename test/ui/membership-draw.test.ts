// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { crossingAt, rowsChangedBetween, type Crossing } from '../../src/core/replay/crossing.ts';
import { buildMembership, type Membership } from '../../src/core/replay/membership.ts';
import { xOf, type TimelineView } from '../../src/ui/timeline/draw.ts';
import { drawCrossedBars, drawMembershipBars, laneLayout, MEMBERSHIP_COLORS, redrawCrossedRows } from '../../src/ui/timeline/membership-draw.ts';
import { Engine } from '../../src/worker/engine.ts';

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
    const { m, height, n } = await longMembership(9);
    for (const [view, width] of [[{ start: 0, end: n }, 700], [{ start: 0, end: n }, 97], [{ start: n * 0.3 + 0.4, end: n * 0.45 }, 640], [{ start: n - 40.5, end: n + 3 }, 300]] as const) {
      const drawn = pixelCanvas(width, height);
      drawMembershipBars(drawn.canvas, m, view, width, false);
      expect(drawn.grid).toEqual(paintedByBars(m, view, width, height));
      // Runs of pixels, not a rect per bar.
      expect(drawn.rects).toBeLessThan(m.nodes);
    }
  });

  it('a step redraws only the pixel rows that changed, to the same pixels as drawing the highlight whole', async () => {
    const { m, layout, height, n } = await longMembership(4);
    // Single steps over the first epochs and around the first replaces (each way), then hops of a few.
    const around = Array.from(m.links.node.subarray(0, 3)).flatMap((k) => [...range(k - 20, k + 20), ...range(k + 19, k - 20)]);
    const epochs = [...range(1, 60), ...around, ...[5, -3, 9, -12, 2].map((d) => around.at(-1)! + d)];
    for (const [view, width] of [[{ start: 0, end: n }, 300], [{ start: n * 0.3 + 0.4, end: n * 0.45 }, 240]] as const) {
      const stepped = pixelCanvas(width, height);
      let crossing: Crossing = crossingAt(m, 0);
      drawCrossedBars(stepped.canvas, m, crossing.nodes, view, width, false);
      let replaced = 0;
      for (const epoch of epochs) {
        const next = crossingAt(m, epoch, crossing);
        const rows = rowsChangedBetween(m, crossing.epoch, epoch)!;
        const before = stepped.rects;
        expect(redrawCrossedRows(stepped.canvas, m, next.nodes, view, width, false, rows.lo, rows.hi)).toBe(true);
        if (Math.abs(epoch - crossing.epoch) === 1 && m.links.node.includes(Math.max(crossing.epoch, epoch) - 1)) replaced++;
        // A step draws the runs of its band's pixel rows, not the whole lane's.
        expect(stepped.rects - before).toBeLessThanOrEqual((Math.floor(rows.hi * layout.pitch) - Math.floor(rows.lo * layout.pitch) + 1) * width);
        const whole = pixelCanvas(width, height);
        drawCrossedBars(whole.canvas, m, next.nodes, view, width, false);
        expect(stepped.grid.join(), `epoch ${crossing.epoch} → ${epoch}`).toBe(whole.grid.join());
        crossing = next;
      }
      expect(replaced).toBeGreaterThan(0);
    }
  });
});

/** The membership of a log with no compaction for a long stretch: hundreds of rows in an 80-pixel lane, and a few replaces. */
async function longMembership(seed: number) {
  const text = generateLog({ dialect: 'v4', seed, turns: 40, compactEvery: 0 }).text;
  const summary = await new Engine().load({ kind: 'text', text, name: 'long.jsonl' }, () => {});
  const m = buildMembership({ seq: summary.columns.seq, surfaceChange: summary.columns.surfaceChange, count: summary.count, replacements: summary.replacements });
  const layout = laneLayout(m.rows);
  expect(layout.pitch).toBeLessThan(0.5);
  expect(m.links.node.length).toBeGreaterThan(0);
  return { m, layout, height: Math.ceil(layout.height), n: summary.count };
}

/** Whole numbers from `a` to `b`, either way, both included. */
const range = (a: number, b: number) => Array.from({ length: Math.abs(b - a) + 1 }, (_, j) => (a <= b ? a + j : a - j));

/** A canvas of whole pixels that clears when sized (as a canvas does) and on clearRect. */
function pixelCanvas(width: number, height: number): { canvas: HTMLCanvasElement; grid: string[]; rects: number } {
  const out = { grid: new Array<string>(width * height).fill(''), rects: 0, canvas: null as unknown as HTMLCanvasElement };
  const paint = (x: number, y: number, w: number, h: number, color: string) => {
    expect([x, y, w, h].every(Number.isInteger)).toBe(true);
    for (let r = Math.max(0, y); r < Math.min(height, y + h); r++) for (let c = Math.max(0, x); c < Math.min(width, x + w); c++) out.grid[r * width + c] = color;
  };
  const g = {
    fillStyle: '', setTransform() {}, beginPath() {}, rect() { throw new Error('a bar drawn as a sub-pixel rect'); }, fill() {},
    clearRect(x: number, y: number, w: number, h: number) { paint(x, y, w, h, ''); },
    fillRect(x: number, y: number, w: number, h: number) { out.rects++; paint(x, y, w, h, g.fillStyle); },
  };
  let size = 0;
  out.canvas = {
    get width() { return size; }, set width(v: number) { size = v; out.grid.fill(''); },
    height: 0, style: {}, getContext: () => g,
  } as unknown as HTMLCanvasElement;
  return out;
}
