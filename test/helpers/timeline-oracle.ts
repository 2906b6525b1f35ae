import { FAMILY_COLORS, prepareCanvas, timelineLayout, xOf, type TimelineView } from '../../src/ui/timeline/draw.ts';
import type { LoadSummary } from '../../src/worker/protocol.ts';

const LANE_H = 9;
const TOP = 14;

/**
 * The timeline's base layer as it was drawn before the axis index (issue #15):
 * every event in view walked one by one. The test's oracle: the indexed
 * drawing must make the same marks. The parts the index did not change (a
 * fork's inherited stretch, the findings) are left out: the test's logs
 * have neither.
 */
export function drawTimelineBaseByEvents(canvas: HTMLCanvasElement, summary: LoadSummary, view: TimelineView, width: number, dark: boolean): void {
  const lanes = summary.families.length;
  const { replaceTop, height } = timelineLayout(summary);
  const g = prepareCanvas(canvas, width, height);
  if (!g) return;
  const span = Math.max(1, view.end - view.start);
  const x = (i: number) => xOf(view, width, i);
  const col = summary.columns;
  const first = Math.max(0, Math.floor(view.start));
  const last = Math.min(summary.count, Math.ceil(view.end));

  // Turn bands, alternating shades.
  let bandStart = first;
  let bandPixel = -1;
  for (let i = first; i <= last; i++) {
    if (i === last || (i > first && col.turn[i] !== col.turn[i - 1])) {
      const px = Math.floor(x(bandStart));
      // A band inside one pixel column that already has one adds nothing visible.
      if (col.turn[bandStart] % 2 === 1 && !(px === bandPixel && Math.floor(x(i)) === px)) {
        bandPixel = px;
        g.fillStyle = dark ? 'rgba(255,255,255,0.05)' : 'rgba(0,0,0,0.04)';
        g.fillRect(x(bandStart), 0, Math.max(1, x(i) - x(bandStart)), replaceTop);
      }
      bandStart = i;
    }
  }
  // Step bands: a thin strip under the turn labels, alternating per step within a turn.
  // A long session has tens of thousands of steps: one band per pixel column where they are narrower.
  let stepStart = first;
  let stepPixel = -1;
  for (let i = first; i <= last; i++) {
    if (i === last || (i > first && (col.step[i] !== col.step[i - 1] || col.turn[i] !== col.turn[i - 1]))) {
      const px = Math.floor(x(stepStart));
      if (col.step[stepStart] > 0 && !(px === stepPixel && Math.floor(x(i)) === px)) {
        stepPixel = px;
        g.fillStyle = col.step[stepStart] % 2 === 1 ? (dark ? 'rgba(110,161,255,0.35)' : 'rgba(47,111,235,0.28)') : (dark ? 'rgba(110,161,255,0.15)' : 'rgba(47,111,235,0.12)');
        g.fillRect(x(stepStart), TOP - 3, Math.max(1, x(i) - x(stepStart) - 1), 2);
      }
      stepStart = i;
    }
  }
  // Turn labels.
  g.fillStyle = dark ? '#98a1ad' : '#6a7280';
  g.font = '10px system-ui, sans-serif';
  let lastLabelX = -100;
  for (let i = first; i < last; i++) {
    if (col.turn[i] > 0 && (i === 0 || col.turn[i] !== col.turn[i - 1])) {
      const lx = x(i);
      const label = `turn ${col.turn[i]}`;
      // A label only where the previous one has ended (long sessions have thousands of turns).
      if (lx > lastLabelX) { g.fillText(label, lx + 2, 10); lastLabelX = lx + g.measureText(label).width + 8; }
    }
  }
  // Events: one mark per pixel column per lane.
  const seen = new Uint8Array(lanes * (Math.ceil(width) + 1));
  for (let i = first; i < last; i++) {
    const lane = col.family[i];
    const px = Math.floor(x(i));
    const key = lane * (Math.ceil(width) + 1) + px;
    if (seen[key]) continue;
    seen[key] = 1;
    g.fillStyle = FAMILY_COLORS[summary.families[lane]] ?? '#888';
    const w = Math.max(1, width / span - 0.5);
    g.fillRect(px, TOP + lane * LANE_H, w, LANE_H - 2);
  }
  // Synthetic events (restore repair) get a dashed underline.
  g.strokeStyle = '#e03131';
  g.setLineDash([2, 2]);
  for (let i = first; i < last; i++) if (col.synthetic[i]) { g.beginPath(); g.moveTo(x(i), replaceTop - 2); g.lineTo(x(i + 1), replaceTop - 2); g.stroke(); }
  g.setLineDash([]);
}
