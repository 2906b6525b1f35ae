import type { LoadSummary } from '../../worker/protocol.ts';
import { indexOfSeq } from '../../core/replay/seq-index.ts';
import { AxisIndex, axisIndexOf } from './axis-index.ts';

export interface TimelineView {
  start: number;
  end: number;
}

/** Family colours, readable on light and dark backgrounds. */
export const FAMILY_COLORS: Record<string, string> = {
  boundary: '#8a94a6', message: '#2f9e44', chunk: '#74c0fc', request: '#f59f00',
  tool: '#ae3ec9', projection: '#1098ad', compaction: '#e8590c', plugin: '#c2255c', job: '#5c940d', other: '#868e96',
};

const LANE_H = 9;
const TOP = 14;

/** Where the lanes are: one per family, then findings, then the replace brackets. */
export function timelineLayout(summary: LoadSummary): { diagTop: number; replaceTop: number; height: number } {
  const diagTop = TOP + summary.families.length * LANE_H;
  const replaceTop = diagTop + LANE_H + 4;
  return { diagTop, replaceTop, height: replaceTop + 26 };
}

/** A canvas sized to the layout at the device's pixel ratio, cleared; null without a 2D context (tests). */
export function prepareCanvas(canvas: HTMLCanvasElement, width: number, height: number): CanvasRenderingContext2D | null {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.floor(width * dpr);
  const h = Math.floor(height * dpr);
  // Setting a canvas's size, even to the size it has, drops and reallocates its bitmap: a cursor layer
  // redrawn at each step (and the base at each report of a loading log) resized itself every time.
  // Same size: the context's own reset clears the bitmap and its state alike.
  const g0 = canvas.width === w && canvas.height === h ? canvas.getContext('2d') : null;
  if (g0 && typeof g0.reset === 'function') g0.reset();
  else { canvas.width = w; canvas.height = h; }
  const cssW = `${width}px`;
  const cssH = `${height}px`;
  if (canvas.style.width !== cssW) canvas.style.width = cssW;
  if (canvas.style.height !== cssH) canvas.style.height = cssH;
  const g = g0 ?? canvas.getContext('2d');
  if (!g) return null;
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, width, height);
  return g;
}

/** The x of event index `i` in a view `width` pixels wide. */
export function xOf(view: TimelineView, width: number, i: number): number {
  return ((i - view.start) / Math.max(1, view.end - view.start)) * width;
}

/**
 * Everything that does not depend on the cursor: turn and step bands, the
 * events binned per pixel, findings, synthetic events. Drawn when the log,
 * the view or the size changes — never on a cursor move — from the log's
 * axis index, so a redraw costs the pixels and turns in view (axis-index.ts).
 */
export function drawTimelineBase(canvas: HTMLCanvasElement, summary: LoadSummary, view: TimelineView, width: number, dark: boolean): void {
  const lanes = summary.families.length;
  const { diagTop, replaceTop, height } = timelineLayout(summary);
  const g = prepareCanvas(canvas, width, height);
  if (!g) return;
  const span = Math.max(1, view.end - view.start);
  const x = (i: number) => xOf(view, width, i);
  const col = summary.columns;
  const first = Math.max(0, Math.floor(view.start));
  const last = Math.min(summary.count, Math.ceil(view.end));

  const axis = axisIndexOf(summary);
  // Turn bands, alternating shades.
  let bandPixel = -1;
  AxisIndex.runs(axis.turnStarts, first, last, (bandStart, i) => {
    const px = Math.floor(x(bandStart));
    // A band inside one pixel column that already has one adds nothing visible.
    if (col.turn[bandStart] % 2 === 1 && !(px === bandPixel && Math.floor(x(i)) === px)) {
      bandPixel = px;
      g.fillStyle = dark ? 'rgba(255,255,255,0.05)' : 'rgba(0,0,0,0.04)';
      g.fillRect(x(bandStart), 0, Math.max(1, x(i) - x(bandStart)), replaceTop);
    }
  });
  // A fork child's inherited events (copied from its parent, dsh-log-rules L1.7): hatched, with a label.
  const inherited = summary.inherited.events;
  if (inherited > first) {
    const right = x(Math.min(inherited, last));
    g.fillStyle = dark ? 'rgba(190,75,219,0.12)' : 'rgba(174,62,201,0.08)';
    g.fillRect(x(first), 0, right - x(first), replaceTop);
    g.save();
    g.beginPath();
    g.rect(x(first), 0, right - x(first), replaceTop);
    g.clip();
    g.strokeStyle = dark ? 'rgba(190,75,219,0.3)' : 'rgba(174,62,201,0.22)';
    g.beginPath();
    for (let hx = x(first) - replaceTop; hx < right; hx += 8) { g.moveTo(hx, 0); g.lineTo(hx + replaceTop, replaceTop); }
    g.stroke();
    g.restore();
  }
  // Step bands: a thin strip under the turn labels, alternating per step within a turn.
  // A long session has tens of thousands of steps: one band per pixel column where they are narrower.
  let stepPixel = -1;
  AxisIndex.runs(axis.stepStarts, first, last, (stepStart, i) => {
    const px = Math.floor(x(stepStart));
    if (col.step[stepStart] > 0 && !(px === stepPixel && Math.floor(x(i)) === px)) {
      stepPixel = px;
      g.fillStyle = col.step[stepStart] % 2 === 1 ? (dark ? 'rgba(110,161,255,0.35)' : 'rgba(47,111,235,0.28)') : (dark ? 'rgba(110,161,255,0.15)' : 'rgba(47,111,235,0.12)');
      g.fillRect(x(stepStart), TOP - 3, Math.max(1, x(i) - x(stepStart) - 1), 2);
    }
  });
  // Turn labels.
  g.fillStyle = dark ? '#98a1ad' : '#6a7280';
  g.font = '10px system-ui, sans-serif';
  let lastLabelX = -100;
  const label = (i: number) => {
    if (col.turn[i] <= 0) return;
    const lx = x(i);
    const text = `turn ${col.turn[i]}`;
    // A label only where the previous one has ended (long sessions have thousands of turns).
    if (lx > lastLabelX) { g.fillText(text, lx + 2, 10); lastLabelX = lx + g.measureText(text).width + 8; }
  };
  if (first === 0 && last > 0) label(0);
  AxisIndex.within(axis.turnStarts, first, last, label);
  // Events: one mark per pixel column per lane, from the families in each column's range of events.
  const w = Math.max(1, width / span - 0.5);
  for (let a = first; a < last; ) {
    const px = Math.floor(x(a));
    // The first event past this column: estimated, then settled by the same x the marks use.
    let b = Math.min(last, Math.max(a + 1, Math.ceil(view.start + ((px + 1) * span) / width)));
    while (b > a + 1 && Math.floor(x(b - 1)) > px) b--;
    while (b < last && Math.floor(x(b)) === px) b++;
    const mask = axis.familiesIn(a, b);
    for (let lane = 0; lane < lanes; lane++) {
      if (!(mask & (1 << lane))) continue;
      g.fillStyle = FAMILY_COLORS[summary.families[lane]] ?? '#888';
      g.fillRect(px, TOP + lane * LANE_H, w, LANE_H - 2);
    }
    a = b;
  }
  // Findings: a tick per event with a diagnostic, red for errors, amber for warnings.
  for (const d of summary.diagnostics) {
    if (d.index === undefined || d.index < first || d.index >= last || d.severity === 'info') continue;
    g.fillStyle = d.severity === 'error' ? '#e03131' : '#f08c00';
    g.fillRect(Math.floor(x(d.index)), diagTop, Math.max(2, width / span), LANE_H - 2);
  }
  if (inherited > first && x(Math.min(inherited, last)) - x(first) > 110) {
    g.fillStyle = dark ? '#d0a4e8' : '#862e9c';
    g.font = '10px system-ui, sans-serif';
    g.fillText('inherited from parent', x(first) + 4, diagTop + LANE_H - 1);
  }
  // Synthetic events (restore repair) get a dashed underline.
  g.strokeStyle = '#e03131';
  g.setLineDash([2, 2]);
  AxisIndex.within(axis.synthetic, first, last, (i) => { g.beginPath(); g.moveTo(x(i), replaceTop - 2); g.lineTo(x(i + 1), replaceTop - 2); g.stroke(); });
  g.setLineDash([]);
}

/** A replace span's place on the axis: the shadowed nodes' first and last index, and the replacing event's. */
export interface SpanPlace {
  first: number;
  last: number;
  at: number;
}

/** Every replace span's place, once per log (a span may shadow thousands of nodes). */
export function spanPlaces(summary: LoadSummary): SpanPlace[] {
  const indexOf = (seq: number) => indexOfSeq(summary.columns.seq, seq);
  return summary.replacements.map((r) => {
    let first = Infinity;
    let last = -Infinity;
    for (const s of r.shadowedSeqs) { const i = indexOf(s); if (i < first) first = i; if (i > last) last = i; }
    return { first, last, at: indexOf(r.seq) };
  });
}

/**
 * Replace spans: a bracket over the shadowed nodes' positions, tied to the
 * replacing event. The first `active` spans (those at or before the cursor)
 * are drawn strong; redrawn only when the cursor crosses a replace.
 */
export function drawTimelineSpans(canvas: HTMLCanvasElement, summary: LoadSummary, places: SpanPlace[], view: TimelineView, width: number, active: number): void {
  const { replaceTop, height } = timelineLayout(summary);
  const g = prepareCanvas(canvas, width, height);
  if (!g) return;
  const x = (i: number) => xOf(view, width, i);
  g.lineWidth = 1.5;
  for (let k = 0; k < places.length; k++) {
    const p = places[k];
    const a = x(p.first);
    const b = x(p.last + 1);
    const at = x(p.at);
    if (at < -50 || a > width + 50) continue;
    const isActive = k < active;
    g.strokeStyle = isActive ? '#e8590c' : 'rgba(232,89,12,0.35)';
    g.fillStyle = isActive ? 'rgba(232,89,12,0.18)' : 'rgba(232,89,12,0.06)';
    g.fillRect(a, replaceTop, Math.max(2, b - a), 10);
    g.beginPath();
    g.moveTo(a, replaceTop + 10); g.lineTo(a, replaceTop + 14); g.lineTo(b, replaceTop + 14); g.lineTo(b, replaceTop + 10);
    g.moveTo((a + b) / 2, replaceTop + 14); g.lineTo((a + b) / 2, replaceTop + 20); g.lineTo(at, replaceTop + 20); g.lineTo(at, replaceTop + 2);
    g.stroke();
  }
  g.lineWidth = 1;
}
