import { describe, expect, it } from 'vitest';
import { closeFit, grownSize } from '../../src/core/util/typed.ts';
import { EventStore } from '../../src/core/log/event-store.ts';
import { LineStore } from '../../src/core/log/line-store.ts';
import { loadSession } from '../../src/core/session/stream-load.ts';
import { ReplayBuilder } from '../../src/core/replay/replay-index.ts';
import { streamLog } from '../../src/core/generate/generate-log.ts';

/**
 * How the per-event arrays grow while a log streams in (issue #15: an array
 * that ends far from full is copied to trim it, twice its size alive at the
 * load's peak).
 */
describe('growing the per-event arrays', () => {
  it('jumps to the projection with a margin, at least a quarter, at most 16×; doubles without one', () => {
    expect(grownSize(100, 0)).toBe(200);
    expect(grownSize(100, 90)).toBe(200);
    expect(grownSize(100, 200)).toBe(206);
    expect(grownSize(100, 110)).toBe(125);
    expect(grownSize(100, 1000)).toBe(1030);
    expect(grownSize(100, 10_000)).toBe(1600);
  });

  it('keeps an array as a view when it is within half of full', () => {
    expect(closeFit(150_000, 100_000)).toBe(true);
    // The generated 10 MB log's columns: a quarter over, kept.
    expect(closeFit(207_695, 165_131)).toBe(true);
    expect(closeFit(151_000, 100_000)).toBe(false);
    expect(closeFit(2000, 10)).toBe(false);
    expect(closeFit(1000, 10)).toBe(true);
  });

  it('projects the count from the bytes walked, also when the whole file came in one chunk', () => {
    const lines = new LineStore(true);
    const text = Array.from({ length: 100 }, (_, i) => `{"seq":${i}}`).join('\n') + '\n';
    const bytes = new TextEncoder().encode(text);
    lines.add(bytes);
    const store = new EventStore(lines, 16, 16, bytes.length);
    // Half the lines walked: the projection doubles the count, though every byte has been read.
    for (let i = 0; i < 50; i++) {
      lines.nextLine();
      store.add({ type: 't', seq: i, time: 0, data: null }, { line: i + 2 }, lines.lastStart, lines.lastEnd, true);
    }
    expect(store.projectedCount(50)).toBeGreaterThanOrEqual(99);
    expect(store.projectedCount(50)).toBeLessThanOrEqual(101);
  });

  it('ends a long session read in one chunk within a fifth of its size', async () => {
    const out: string[] = [];
    streamLog({ dialect: 'v0', seed: 5, turns: 8, long: true }, (line) => { out.push(line); });
    const bytes = new TextEncoder().encode(out.join('\n') + '\n');
    let builder: ReplayBuilder | null = null;
    const session = await loadSession([bytes], { sizeHint: bytes.length, riders: (_m, store) => [(builder = ReplayBuilder.forStore(store, { capacity: bytes.length / 400 }))] });
    const capacity = (builder as unknown as { columns: { seq: Uint32Array } }).columns.seq.length;
    expect(session.loggedCount).toBeGreaterThan(10_000);
    expect(capacity).toBeGreaterThanOrEqual(session.loggedCount);
    expect(capacity).toBeLessThanOrEqual(session.loggedCount * 1.2);
  });
});
