import type { Membership } from '../../core/replay/membership.ts';
import { firstWhere } from '../../core/util/sorted.ts';
import { prepareCanvas, xOf, type TimelineView } from './draw.ts';

/** The lane's height: rows up to 8 px each, at most 80 px (a long session's rows get thinner, then share pixels); the panels below keep the room. */
export const LANE_MAX_H = 80;
const ROW_MAX = 8;

export interface LaneLayout {
  height: number;
  /** CSS pixels per row (below 1 when rows outnumber pixels: several rows share one). */
  pitch: number;
}

export function laneLayout(rows: number): LaneLayout {
  if (rows === 0) return { height: 12, pitch: ROW_MAX };
  const pitch = Math.min(ROW_MAX, LANE_MAX_H / rows);
  return { height: Math.max(12, Math.ceil(rows * pitch)), pitch };
}

/** Bar height in a row: a gap of a pixel (a device pixel on thin rows) while rows are thick enough to show one. */
function barH(pitch: number): number {
  const dpr = (typeof window !== 'undefined' && window.devicePixelRatio) || 1;
  if (pitch >= 3) return pitch - 1;
  if (pitch * dpr >= 3) return pitch - 1 / dpr;
  return Math.max(pitch, 0.5);
}

const REPLACE = '#e8590c';

export const MEMBERSHIP_COLORS = {
  bar: (dark: boolean) => (dark ? '#4a515c' : '#c3c9d1'),
  replacing: (dark: boolean) => (dark ? '#9a4a22' : '#f5a97f'),
  crossed: (dark: boolean) => (dark ? '#6ea1ff' : '#2f6feb'),
  replace: REPLACE,
};

/** Calls `visit` with the x span of each bar of `pick` (among `ids`, or every node) that shows in the view. */
function eachVisibleBar(m: Membership, view: TimelineView, width: number, pick: (k: number) => boolean, ids: ArrayLike<number> | undefined, visit: (k: number, a: number, b: number) => void): void {
  const n = ids ? ids.length : m.nodes;
  for (let j = 0; j < n; j++) {
    const k = ids ? ids[j] : j;
    if (!pick(k)) continue;
    const a = xOf(view, width, m.enter[k]);
    const b = xOf(view, width, m.leave[k]);
    if (b >= 0 && a <= width) visit(k, a, b);
  }
}

/** Adds the bars of `ids` (or of every node) that show in the view to one path, filled with one colour. */
function fillBars(g: CanvasRenderingContext2D, m: Membership, view: TimelineView, width: number, layout: LaneLayout, pick: (k: number) => boolean, color: string, ids?: ArrayLike<number>): void {
  const h = barH(layout.pitch);
  g.fillStyle = color;
  g.beginPath();
  eachVisibleBar(m, view, width, pick, ids, (k, a, b) => {
    // Half a pixel off the start keeps two bars in one row apart; never thinner than a pixel.
    const left = Math.max(-1, a + (b - a > 3 ? 0.5 : 0));
    g.rect(left, m.row[k] * layout.pitch, Math.max(1, Math.min(width + 1, b) - left), h);
  });
  g.fill();
}

/** Pixel rows `from`..`to` (inclusive) of a lane: a band the highlight can redraw alone. */
export interface PixelBand { from: number; to: number }

/**
 * The bars of `pick` (among `ids`, or every node) as the pixels they cover, for rows thinner than a pixel:
 * each bar adds its columns to its pixel row as two marks of a difference
 * row, and each row is drawn as its runs of covered columns. A long session's
 * hundreds of thousands of bars were as many sub-pixel rects in one path,
 * which the rasterizer took half a second to fill at every zoom.
 * With a `band`, only its pixel rows are drawn (bars elsewhere are skipped).
 */
function fillCoverage(g: CanvasRenderingContext2D, m: Membership, view: TimelineView, width: number, layout: LaneLayout, pick: (k: number) => boolean, color: string, ids?: ArrayLike<number>, band?: PixelBand): void {
  const rows = Math.ceil(layout.height);
  const columns = Math.ceil(width);
  const first = band ? Math.max(0, band.from) : 0;
  const last = band ? Math.min(rows - 1, band.to) : rows - 1;
  if (last < first || columns <= 0) return;
  const stride = columns + 1;
  const marks = new Int32Array((last - first + 1) * stride);
  eachVisibleBar(m, view, width, pick, ids, (k, a, b) => {
    const r = pixelRowOf(m, layout, k);
    if (r < first || r > last) return;
    // The columns the bar touches, at least one (as the rects were never thinner than a pixel).
    const left = Math.min(columns - 1, Math.max(0, Math.floor(a)));
    const end = Math.max(left + 1, Math.min(columns, Math.ceil(b)));
    marks[(r - first) * stride + left]++;
    marks[(r - first) * stride + end]--;
  });
  g.fillStyle = color;
  for (let r = first; r <= last; r++) {
    const base = (r - first) * stride;
    let depth = 0;
    let start = -1;
    for (let c = 0; c <= columns; c++) {
      depth += marks[base + c];
      if (depth > 0 && start < 0) start = c;
      else if (depth <= 0 && start >= 0) { g.fillRect(start, r, c - start, 1); start = -1; }
    }
  }
}

/** The pixel row a lane row is drawn on when rows are thinner than a pixel. */
function pixelRow(layout: LaneLayout, row: number): number {
  return Math.min(Math.ceil(layout.height) - 1, Math.floor(row * layout.pitch));
}

/** The pixel row node `k`'s bar is drawn on. */
const pixelRowOf = (m: Membership, layout: LaneLayout, k: number): number => pixelRow(layout, m.row[k]);

/**
 * Every node's bar, from the event that put it on the surface to the replace
 * that shadowed it. Nodes a replace put there are tinted orange. Drawn when
 * the log, the view, the size or the theme change, never on a cursor move.
 */
export function drawMembershipBars(canvas: HTMLCanvasElement, m: Membership, view: TimelineView, width: number, dark: boolean): void {
  const layout = laneLayout(m.rows);
  const g = prepareCanvas(canvas, width, layout.height);
  if (!g) return;
  const replacing = new Uint8Array(m.nodes);
  for (const k of m.links.node) replacing[k] = 1;
  // Rows of a pixel or more: a rect per bar, with a gap between rows. Thinner: the pixels the bars cover.
  const fill = layout.pitch < 1 ? fillCoverage : fillBars;
  fill(g, m, view, width, layout, (k) => !replacing[k], MEMBERSHIP_COLORS.bar(dark));
  fill(g, m, view, width, layout, (k) => replacing[k] === 1, MEMBERSHIP_COLORS.replacing(dark));
}

/** The bars the cursor crosses (the surface at the cursor), over the whole lane. */
export function drawCrossedBars(canvas: HTMLCanvasElement, m: Membership, crossed: Uint32Array, view: TimelineView, width: number, dark: boolean): void {
  const layout = laneLayout(m.rows);
  const g = prepareCanvas(canvas, width, layout.height);
  if (!g) return;
  // Rows thinner than a pixel share pixel rows: every crossed bar holds the cursor, so in a pixel row
  // their pixels are one run, drawn as one rect (a long session crosses tens of thousands at once).
  const fill = layout.pitch < 1 ? fillCoverage : fillBars;
  fill(g, m, view, width, layout, () => true, MEMBERSHIP_COLORS.crossed(dark), crossed);
}

/**
 * Redraws only the pixel rows holding rows `lo`..`hi` of a highlight drawn before by `drawCrossedBars`
 * with the same membership, view, width and theme: a step past one membership change touches a row or
 * a replace's run, where a whole redraw walked the tens of thousands of bars a long surface holds.
 * Returns false where it cannot (rows of a pixel or more, whose whole redraw is small): redraw it all.
 */
export function redrawCrossedRows(canvas: HTMLCanvasElement, m: Membership, crossed: Uint32Array, view: TimelineView, width: number, dark: boolean, lo: number, hi: number): boolean {
  const layout = laneLayout(m.rows);
  // A fractional device-pixel ratio splits device pixels between pixel rows: a band cleared alone
  // would take a sliver of its neighbours, so those screens redraw it all.
  const dpr = (typeof window !== 'undefined' && window.devicePixelRatio) || 1;
  if (layout.pitch >= 1 || !Number.isInteger(dpr)) return false;
  if (hi < lo) return true;
  const g = canvas.getContext('2d');
  if (!g) return false;
  const band = { from: pixelRow(layout, lo), to: pixelRow(layout, hi) };
  // The context keeps the device-pixel transform `prepareCanvas` set: clear in CSS pixels, whole rows.
  g.clearRect(0, band.from, Math.ceil(width), band.to - band.from + 1);
  // Rows increase along the crossing set: the bars on the band's pixel rows are one stretch of it.
  const start = firstWhere(crossed.length, (j) => pixelRowOf(m, layout, crossed[j]) >= band.from);
  const end = firstWhere(crossed.length, (j) => pixelRowOf(m, layout, crossed[j]) > band.to);
  fillCoverage(g, m, view, width, layout, () => true, MEMBERSHIP_COLORS.crossed(dark), crossed.subarray(start, end), band);
  return true;
}


/**
 * Each replace's join: a bracket at the replace over the rows it shadowed, opening onto the
 * replacing bar. Replaces at or before the cursor are strong. Drawn on a layer of its own, when
 * the cursor passes a replace.
 */
export function drawMembershipJoins(canvas: HTMLCanvasElement, m: Membership, view: TimelineView, width: number, activeLinks: number): void {
  const layout = laneLayout(m.rows);
  const g = prepareCanvas(canvas, width, layout.height);
  if (!g) return;
  const { at, node, from, shadowed } = m.links;
  const h = barH(layout.pitch);
  g.lineWidth = 1.5;
  for (let k = 0; k < at.length; k++) {
    const x = Math.round(xOf(view, width, at[k])) - 0.5;
    if (x < -4 || x > width + 4) continue;
    const top = m.row[shadowed[from[k]]] * layout.pitch;
    const bottom = m.row[shadowed[from[k + 1] - 1]] * layout.pitch + h;
    const active = k < activeLinks;
    g.strokeStyle = active ? REPLACE : 'rgba(232,89,12,0.4)';
    // The bracket closes the shadowed bars; the stub after it opens the replacing bar (on the run's first row).
    g.beginPath();
    g.moveTo(x - 3, top); g.lineTo(x, top); g.lineTo(x, Math.max(bottom, top + 2)); g.lineTo(x - 3, Math.max(bottom, top + 2));
    g.stroke();
    g.fillStyle = active ? REPLACE : 'rgba(232,89,12,0.4)';
    g.fillRect(x, m.row[node[k]] * layout.pitch, 4, h);
  }
  g.lineWidth = 1;
}
