import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { applyEdits, planEdits } from '../../src/core/whatif/apply-edits.ts';
import type { Edit } from '../../src/core/whatif/edits.ts';
import { CompareHost } from '../../src/worker/compare-host.ts';
import { Engine } from '../../src/worker/engine.ts';
import { WhatIfHost } from '../../src/worker/whatif-host.ts';

/**
 * The worker's what-if of an opened file keeps the file's bytes before the
 * first edited line as a slice of it and rewrites only the rest (docs/whatif.md):
 * it must write what the core's `applyEdits` writes from the whole text, on
 * logs whose bytes and characters part ways (multi-byte text, a BOM, CRLF).
 */
/** Bytes as a string of the same length (a string compare is quick and shows where two differ; a typed array's deep equality is not). */
const bytesOf = (b: ArrayBuffer | Uint8Array) => Buffer.from(b instanceof Uint8Array ? b : new Uint8Array(b)).toString('latin1');

describe('what if on an opened file: the kept lines are a slice of the file', () => {
  const plain = generateLog({ dialect: 'v0', seed: 61, turns: 6, compactEvery: 2, packChunks: true }).text;
  // Multi-byte characters before the cut: a byte offset taken for a character offset would cut a line in two.
  const wide = plain.replace('"text":"', '"text":"é✓😀 ');
  const crlf = '\ufeff' + wide.replace(/\n/g, '\r\n');

  /** Edits near the end of the log: new text, a drop, an insert, an undone replace. */
  function editsNearEnd(text: string): Edit[][] {
    const { events } = readLogText(text);
    const late = events.slice(Math.floor(events.length * 0.7));
    const message = late.find((e) => (e.type === 'tool/result' || e.type === 'user/message') && e.surfaceOp === 'append')!;
    const replace = events.findLast((e) => e.surfaceOp !== undefined && e.surfaceOp !== 'append');
    return [
      [{ kind: 'text', seq: message.seq, text: 'shorter ✂' }],
      [{ kind: 'drop', seq: late[3].seq }],
      [{ kind: 'insert-user', before: late[5].seq, text: 'what if I had said this' }],
      [{ kind: 'insert-user', before: events.at(-1)!.seq + 1, text: 'at the end' }],
      ...(replace ? [[{ kind: 'undo-replace' as const, seq: replace.seq }]] : []),
      [],
    ];
  }

  it.each([['plain', plain], ['multi-byte', wide], ['BOM and CRLF', crlf]])('%s: the edited file equals the core\'s edited text, and its start is the original\'s bytes', async (_name, text) => {
    const engine = new Engine();
    const compare = new CompareHost(engine);
    const whatIf = new WhatIfHost(compare);
    const file = new Blob([text]);
    const source = { kind: 'file' as const, file, name: 'run.jsonl' };
    await engine.load(source, () => {});
    const read = readLogText(text);
    for (const edits of editsNearEnd(text)) {
      const expected = applyEdits(text, read, edits);
      const loaded = await whatIf.load(source, edits, () => {});
      const got = whatIf.file();
      // As bytes: a Blob's text() drops a BOM.
      expect(bytesOf(await got.arrayBuffer()), JSON.stringify(edits)).toBe(bytesOf(new TextEncoder().encode(expected.text)));
      expect(loaded.problems).toEqual(expected.problems);
      expect(loaded.summary.count).toBe(readLogText(expected.text).events.length + loaded.summary.syntheticCount);
      // The lines before the plan's first line are the file's own bytes.
      const plan = planEdits(read, edits);
      expect(plan.firstLine, 'an edit near the end leaves the start unread').toBeGreaterThan(1);
      const keptChars = text.split('\n').slice(0, plan.firstLine - 1).join('\n').length + 1;
      const keptBytes = new TextEncoder().encode(text.slice(0, keptChars)).length;
      expect(bytesOf(await got.slice(0, keptBytes).arrayBuffer())).toBe(bytesOf(await file.slice(0, keptBytes).arrayBuffer()));
    }
  });

  it('a log opened as text is decoded whole and edited the same way', async () => {
    const engine = new Engine();
    const whatIf = new WhatIfHost(new CompareHost(engine));
    await engine.load({ kind: 'text', text: wide, name: 'run.jsonl' }, () => {});
    const edits = editsNearEnd(wide)[0];
    await whatIf.load({ kind: 'text', text: wide, name: 'run.jsonl' }, edits, () => {});
    expect(await whatIf.file().text()).toBe(applyEdits(wide, readLogText(wide), edits).text);
  });
});
