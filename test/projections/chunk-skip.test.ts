import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { projectLog } from '../../src/core/projections/project-log.ts';
import { chunkLineKind } from '../../src/core/projections/chunk-skip.ts';
import { loadBothWays, projectionAnswers } from '../helpers/projector-pair.ts';

/**
 * The projection helper skips the chunk lines no unit would be handed
 * (issue #15), and the load trusts its history only when its own full read
 * shows every skipped line was one: a line that looks like a chunk delta but
 * is not one makes the load fold the units itself, with the walk's answers.
 */
const log = generateLog({ dialect: 'v0', seed: 11, turns: 6 });

const sample = (count: number) => [0, Math.floor(count / 3), Math.floor(count / 2), count - 1];

async function expectWalkAnswers(text: string, by: 'helper' | 'store') {
  const { walk, helped } = await loadBothWays(text);
  expect(helped.summary.projectedBy).toBe(by);
  const indexes = sample(walk.summary.count);
  expect(projectionAnswers(helped.engine, helped.summary, indexes)).toEqual(projectionAnswers(walk.engine, walk.summary, indexes));
  expect(walk.summary.projectionUnits.some((u) => u.changes.length > 5)).toBe(true);
}

/** A chunk line (not a packed row) the helper skips, in the log's second half: its index in `lines` and its chunk's type. */
async function skippedChunkLine(lines: string[]): Promise<{ at: number; chunkType: string }> {
  const projected = await projectLog([new TextEncoder().encode(lines.join('\n') + '\n')]);
  const skipped = new Set(projected.skips!.lines);
  const at = lines.findIndex((l, i) => i > lines.length / 2 && skipped.has(i + 1) && l.startsWith('{"type":"assistant/chunk"'));
  expect(at).toBeGreaterThan(0);
  return { at, chunkType: JSON.parse(lines[at]).data.chunk.type };
}

describe('the helper\'s skipped chunk lines', () => {
  it('reads a chunk line\'s kind off its text, and no other line\'s', () => {
    expect(chunkLineKind('{"type":"assistant/chunk","seq":9,"time":1,"data":{"turn":1,"step":1,"chunk":{"type":"usage","usage":{}}}}')).toBe('assistant/chunk:usage');
    expect(chunkLineKind('{"type":"reasoning-chunks","seq0":4,"time0":1,"data":{}}')).toBe('assistant/chunk:reasoning-delta');
    expect(chunkLineKind('{"type":"tool-call-chunks","seq0":4,"time0":1,"data":{}}')).toBe('assistant/chunk:tool-call-delta');
    expect(chunkLineKind('{"type":"turn/start","seq":1,"time":1,"data":{"turn":1}}')).toBeNull();
    expect(chunkLineKind('{"seq":9,"type":"assistant/chunk","data":{"chunk":{"type":"text-delta"}}}')).toBeNull();
  });

  it('a log DSH wrote: lines skipped, the history trusted, the walk\'s answers', async () => {
    const projected = await projectLog([new TextEncoder().encode(log.text)]);
    expect(projected.skips!.lines.length).toBeGreaterThan(log.lines.length / 4);
    await expectWalkAnswers(log.text, 'helper');
  });

  it('a line that looks like a chunk delta but parses as another event (a repeated type key) is found', async () => {
    const lines = log.lines.slice();
    const { at } = await skippedChunkLine(lines);
    const row = JSON.parse(lines[at]);
    // The last "type" wins in JSON.parse: the load reads a todo/write, which a unit reads.
    lines[at] = lines[at].replace(/\}$/, ',"type":"todo/write"}').replace('"data":{', '"data":{"todos":[{"content":"hidden","status":"pending"}],');
    expect(JSON.parse(lines[at]).type).toBe('todo/write');
    expect(JSON.parse(lines[at]).seq).toBe(row.seq);
    await expectWalkAnswers(lines.join('\n') + '\n', 'store');
  });

  it('a usage chunk that looks like another chunk is found (its tokens are read)', async () => {
    const lines = log.lines.slice();
    const { at, chunkType } = await skippedChunkLine(lines);
    lines[at] = lines[at].replace(`"chunk":{"type":"${chunkType}"`, `"chunk":{"type":"${chunkType}","type":"usage","usage":{"inputTokens":7,"outputTokens":5}`);
    expect(JSON.parse(lines[at]).data.chunk.type).toBe('usage');
    await expectWalkAnswers(lines.join('\n') + '\n', 'store');
  });

  it('a chunk line that is not JSON (a bad row the load keeps aside) is found', async () => {
    const lines = log.lines.slice();
    const { at } = await skippedChunkLine(lines);
    lines[at] = lines[at].slice(0, -2);
    await expectWalkAnswers(lines.join('\n') + '\n', 'store');
  });
});
