import { describe, expect, it } from 'vitest';
import { columnCharsOf, columnMaxima, rowOfEvents, sortedRows } from '../../src/ui/events/visible-rows.ts';

type Columns = Parameters<typeof columnMaxima>[0] & Parameters<typeof columnCharsOf>[1];
const rowColumnChars = (columns: Columns, count: number) => columnCharsOf(columnMaxima(columns, count), columns, count);

/** A seeded column set: `types` type names in no order, families by type, times that go back now and then. */
function columns(count: number, seed: number) {
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const typeNames = ['tool/result', 'assistant/chunk', 'Turn/start', 'step/end', 'agent/inbox/spliced', 'turn/start', 'request/header'];
  const typeId = Uint8Array.from({ length: count }, () => Math.floor(rand() * typeNames.length));
  const family = Uint8Array.from(typeId, (id) => id % 3);
  let t = 0;
  const time = Int32Array.from({ length: count }, () => (t += Math.floor(rand() * 7) - 2));
  return { typeNames, columns: { typeId, family, time } };
}

describe('the events list\'s sorted rows (linear on a 1M-event log)', () => {
  it.each([1, 2, 3])('by type: the order of a stable sort by type name, then seq (seed %i)', (seed) => {
    const { typeNames, columns: c } = columns(5000, seed);
    for (const hidden of [new Set<number>(), new Set([1])]) {
      const expected = Array.from({ length: 5000 }, (_, i) => i).filter((i) => !hidden.has(c.family[i]))
        .sort((a, b) => typeNames[c.typeId[a]].localeCompare(typeNames[c.typeId[b]]) || a - b);
      expect(Array.from(sortedRows(5000, c, typeNames, hidden, 'type'))).toEqual(expected);
    }
  });

  it('by time: logged time, then seq; seq order keeps the filter only', () => {
    const { typeNames, columns: c } = columns(3000, 9);
    const all = Array.from({ length: 3000 }, (_, i) => i);
    expect(Array.from(sortedRows(3000, c, typeNames, new Set(), 'time'))).toEqual([...all].sort((a, b) => c.time[a] - c.time[b] || a - b));
    expect(Array.from(sortedRows(3000, c, typeNames, new Set([0]), 'seq'))).toEqual(all.filter((i) => c.family[i] !== 0));
  });

  it('the row of each event is its position in the rows, -1 when filtered out', () => {
    const { typeNames, columns: c } = columns(2000, 4);
    const rows = sortedRows(2000, c, typeNames, new Set([2]), 'type');
    const rowOf = rowOfEvents(rows, 2000);
    for (let i = 0; i < 2000; i++) expect(rowOf[i]).toBe(Array.prototype.indexOf.call(rows, i));
  });
});

describe('the seq and turn.step columns fit the log', () => {
  it('counts the characters of the widest seq and turn.step', () => {
    const seq = Float64Array.from({ length: 1200 }, (_, i) => 998_900 + i);
    const turn = Uint16Array.from({ length: 1200 }, (_, i) => 12_000 + (i >> 4));
    const step = Uint8Array.from({ length: 1200 }, (_, i) => i % 13);
    // 1000099: 7 digits; turn 12074 and step 12 make "12074.12".
    expect(rowColumnChars({ seq, turn, step }, 1200)).toEqual({ seq: 7, turnStep: 8 });
    expect(rowColumnChars({ seq: [-3, 4], turn: [0, 1], step: [0, 2] }, 2)).toEqual({ seq: 2, turnStep: 3 });
    expect(rowColumnChars({ seq: [], turn: [], step: [] }, 0)).toEqual({ seq: 1, turnStep: 3 });
    // A growing log's maxima, extended with its later rows, are the whole log's.
    const firstPart = columnMaxima({ turn, step }, 700);
    expect(columnMaxima({ turn, step }, 1200, 700, firstPart)).toEqual(columnMaxima({ turn, step }, 1200));
    expect(columnMaxima({ turn, step }, 1200, 700, firstPart)).not.toEqual(firstPart);
  });
});
