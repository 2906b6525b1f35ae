import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { Engine } from '../../src/worker/engine.ts';
import { readLogText } from '../../src/core/log/reader.ts';

/**
 * The type column takes 1 byte an event while a log has at most 256 event
 * types (issue #15: the worker keeps it for navigation), and widens with
 * every id kept once a log has more.
 */
describe('the type column', () => {
  const log = generateLog({ dialect: 'v0', seed: 4, turns: 3, stepsPerTurn: 3 });

  /** Each logged event's type as the summary's column and names give it back. */
  async function typesOf(text: string) {
    const summary = await new Engine().load({ kind: 'text', text, name: 'a' }, () => {});
    const logged = summary.count - summary.syntheticCount;
    return { column: summary.columns.typeId, types: Array.from(summary.columns.typeId.subarray(0, logged), (id) => summary.typeNames[id]) };
  }

  it('is 1 byte an event for a log of catalog types', async () => {
    const { column, types } = await typesOf(log.text);
    expect(column).toBeInstanceOf(Uint8Array);
    expect(types).toEqual(readLogText(log.text).events.map((e) => e.type));
  });

  it('widens to 2 bytes past 256 types, every earlier id kept', async () => {
    // Ignorable events of 300 made-up types after the generated ones: each a type of its own.
    const rows = log.lines.slice(1).map((l) => JSON.parse(l) as { seq: number; time: number });
    const last = rows.at(-1)!;
    const extra = Array.from({ length: 300 }, (_, k) => JSON.stringify({ type: `x-test/kind-${k}`, seq: last.seq + 1 + k, time: last.time, ignorable: true, data: {} }));
    const text = [...log.lines, ...extra].join('\n') + '\n';
    const { column, types } = await typesOf(text);
    expect(column).toBeInstanceOf(Uint16Array);
    const want = readLogText(text).events.map((e) => e.type);
    expect(want.filter((t) => t.startsWith('x-test/'))).toHaveLength(300);
    expect(types).toEqual(want);
  });
});
