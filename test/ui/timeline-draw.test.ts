// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { AxisIndex } from '../../src/ui/timeline/axis-index.ts';
import { drawTimelineBase, type TimelineView } from '../../src/ui/timeline/draw.ts';
import { FAMILIES } from '../../src/core/replay/families.ts';
import { Rng } from '../../src/core/generate/prng.ts';
import type { LoadSummary } from '../../src/worker/protocol.ts';
import { drawTimelineBaseByEvents } from '../helpers/timeline-oracle.ts';

/** A canvas whose context writes down every mark drawn, with the style it was drawn in. */
function recordingCanvas(): { canvas: HTMLCanvasElement; marks: string[] } {
  const marks: string[] = [];
  const r = (n: number) => n.toFixed(3);
  const g = {
    fillStyle: '', strokeStyle: '', font: '', lineWidth: 1,
    setTransform() {}, clearRect() {}, save() {}, restore() {}, clip() {}, beginPath() {}, stroke() {}, setLineDash() {}, rect() {},
    fillRect(x: number, y: number, w: number, h: number) { marks.push(`rect ${g.fillStyle} ${r(x)} ${r(y)} ${r(w)} ${r(h)}`); },
    fillText(t: string, x: number, y: number) { marks.push(`text ${g.fillStyle} ${t} ${r(x)} ${r(y)}`); },
    measureText(t: string) { return { width: t.length * 5 }; },
    moveTo(x: number, y: number) { marks.push(`move ${r(x)} ${r(y)}`); },
    lineTo(x: number, y: number) { marks.push(`line ${r(x)} ${r(y)}`); },
  };
  const canvas = { width: 0, height: 0, style: {}, getContext: () => g } as unknown as HTMLCanvasElement;
  return { canvas, marks };
}

/** A long session's columns: turns of a few steps, bursts of one family (chunks), a few synthetic events at the end. */
function summaryOf(count: number, seed: number): LoadSummary {
  const rng = new Rng(seed);
  const columns = {
    seq: new Uint32Array(count), typeId: new Uint8Array(count), family: new Uint8Array(count), turn: new Uint32Array(count), step: new Uint16Array(count),
    time: new Float64Array(count), surfaceChange: new Uint8Array(count), requestCut: new Uint8Array(count), synthetic: new Uint8Array(count),
  };
  // Turn 1 from the first event (so the first label is drawn), step 0 until the first step starts.
  let turn = 1;
  let step = 0;
  for (let i = 0; i < count; i++) {
    if (i > 0 && rng.int(0, 40) === 0) { turn++; step = 0; } else if (rng.int(0, 12) === 0) step++;
    columns.seq[i] = i;
    columns.turn[i] = turn;
    columns.step[i] = step;
    columns.family[i] = rng.int(0, 5) === 0 ? rng.int(0, FAMILIES.length - 1) : 2;
    columns.synthetic[i] = i >= count - 3 ? 1 : 0;
  }
  return { columns, count, families: FAMILIES, inherited: { seq: 0, events: 0 }, diagnostics: [] } as unknown as LoadSummary;
}

const marksOf = (draw: typeof drawTimelineBase, summary: LoadSummary, view: TimelineView, width: number): string[] => {
  const { canvas, marks } = recordingCanvas();
  draw(canvas, summary, view, width, false);
  return marks;
};

describe('the timeline base drawn from the axis index (issue #15: a zoom on a 1M-event log walked every event)', () => {
  const summary = summaryOf(20_000, 3);

  it('makes the same marks as drawing event by event, whole log and zoomed, fractional edges included', () => {
    for (const [view, width] of [[{ start: 0, end: 20_000 }, 1400], [{ start: 0, end: 20_000 }, 333], [{ start: 1000.5, end: 1800.25 }, 1400], [{ start: 7001.3, end: 7040.9 }, 900], [{ start: 19_990, end: 20_010 }, 500]] as const) {
      const indexed = marksOf(drawTimelineBase, summary, view, width);
      const byEvents = marksOf(drawTimelineBaseByEvents, summary, view, width);
      expect(indexed.length).toBeGreaterThan(10);
      // The bands, labels and synthetic marks come in the same order; event marks per column may come lane by lane.
      expect([...indexed].sort()).toEqual([...byEvents].sort());
      expect(indexed.filter((m) => !m.startsWith('rect #'))).toEqual(byEvents.filter((m) => !m.startsWith('rect #')));
    }
  });

  it('finds the families of any range of events from its blocks', () => {
    const axis = new AxisIndex(summary.columns, summary.count);
    const rng = new Rng(8);
    for (let k = 0; k < 300; k++) {
      const a = rng.int(0, summary.count - 1);
      const b = Math.min(summary.count, a + rng.int(1, k % 3 === 0 ? 5000 : 40));
      let mask = 0;
      for (let i = a; i < b; i++) mask |= 1 << summary.columns.family[i];
      expect(axis.familiesIn(a, b)).toBe(mask);
    }
  });
});
