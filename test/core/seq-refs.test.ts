import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { inspect } from '../../src/core/inspect.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { encodeSourceEventSeqs, remapRowSeqs } from '../../src/core/log/seq-refs.ts';

/** The one table of seq references (src/core/log/seq-refs.ts), on single rows and on whole generated logs. */
describe('remapRowSeqs', () => {
  const plus10 = (s: number) => s + 10;

  it('moves the envelope, a replace op, range-encoded sources and the typed payload fields', () => {
    const { row, lost, dropped } = remapRowSeqs({
      type: 'user/message', seq: 20, surfaceOp: { op: 'replace', startSeq: 3, endSeq: 9 }, sourceEventSeqs: [1, [3, 9]], data: { headerSeq: 2 },
    }, plus10);
    expect(row).toEqual({ type: 'user/message', seq: 30, surfaceOp: { op: 'replace', startSeq: 13, endSeq: 19 }, sourceEventSeqs: [11, [13, 19]], data: { headerSeq: 2 } });
    expect([lost, dropped]).toEqual([[], []]);
    expect(remapRowSeqs({ type: 'developer/message', seq: 5, data: { headerSeq: 2 } }, plus10).row.data.headerSeq).toBe(12);
    expect(remapRowSeqs({ type: 'text-chunks', seq0: 4, data: {} }, plus10).row.seq0).toBe(14);
    const metering = remapRowSeqs({ type: 'compaction/summary', seq: 8, data: { shadowedRange: { start: 2, end: 5 }, shadowedSeqs: [2, 3, 5], summary: 's' } }, plus10).row;
    expect(metering.data).toEqual({ shadowedRange: { start: 12, end: 15 }, shadowedSeqs: [12, 13, 15], summary: 's' });
    expect(remapRowSeqs({ type: 'image/offload', seq: 9, data: { targets: [{ seq: 4, imageIndexes: [0] }] } }, plus10).row.data.targets).toEqual([{ seq: 14, imageIndexes: [0] }]);
    expect(remapRowSeqs({ type: 'session/title', seq: 9, data: { title: 't', messageSeqs: [1, 2] } }, plus10).row.data.messageSeqs).toEqual([11, 12]);
    expect(remapRowSeqs({ type: 'command/done', seq: 9, data: { sourceEventSeq: 3 } }, plus10).row.data.sourceEventSeq).toBe(13);
  });

  it('leaves positions that are not seqs, and plugin records, as they are', () => {
    const inbox = { type: 'agent/inbox/spliced', seq: 3, data: { start: 2, removedCount: 1, inserted: [] } };
    expect(remapRowSeqs(inbox, plus10).row.data).toBe(inbox.data);
    const workflow = { type: 'tool-workflow/agent-start', seq: 3, data: { seq: 1 } };
    expect(remapRowSeqs(workflow, plus10).row.data).toBe(workflow.data);
    const plugin = { type: 'plugin:translator/result', seq: 3, ignorable: true, data: { requestSeq: 2 } };
    expect(remapRowSeqs(plugin, plus10).row).toEqual({ ...plugin, seq: 13 });
  });

  it('a reference to a gone event is lost (kept, reported); a gone citation is dropped from its list', () => {
    const gone = (s: number) => (s === 4 ? null : s > 4 ? s - 1 : s);
    const r = remapRowSeqs({ type: 'user/message', seq: 9, surfaceOp: { op: 'replace', startSeq: 4, endSeq: 6 }, sourceEventSeqs: [[3, 6]], data: {} }, gone);
    expect(r.row.surfaceOp).toEqual({ op: 'replace', startSeq: 4, endSeq: 5 });
    expect(r.row.sourceEventSeqs).toEqual([[3, 5]]);
    expect(r.lost).toEqual(['surfaceOp.startSeq']);
    expect(r.dropped).toEqual(['sourceEventSeqs 4']);
  });

  it('encodes runs of three or more as pairs, shorter ones as seqs', () => {
    expect(encodeSourceEventSeqs([1, 2, 4, 5, 6, 8])).toEqual([1, 2, [4, 6], 8]);
    expect(encodeSourceEventSeqs([])).toEqual([]);
  });

  it.each([['v0', { dialect: 'v0' as const, packChunks: true }], ['v4', { dialect: 'v4' as const, imageOffload: true }]])(
    'a %s log with compactions, prunes and offloads folds the same after a log-only row is inserted and every later seq moved',
    (_name, opts) => {
      const log = generateLog({ ...opts, seed: 4, turns: 6, compactEvery: 2 });
      const before = inspect(readLogText(log.text));
      const lines = log.text.trimEnd().split('\n');
      // Insert at the middle line: a log-only row both formats know, then every row at or after it moves by one.
      const at = Math.floor(lines.length / 2);
      const firstMoved = JSON.parse(lines[at]);
      const seq: number = firstMoved.seq ?? firstMoved.seq0;
      const moved = lines.map((l, i) => (i < at ? l : JSON.stringify(remapRowSeqs(JSON.parse(l), (s) => (s >= seq ? s + 1 : s)).row)));
      moved.splice(at, 0, JSON.stringify({ type: 'feedback/record', seq, time: firstMoved.time ?? firstMoved.time0, data: { category: 'note', text: 'inserted' } }));
      const after = inspect(readLogText(moved.join('\n') + '\n'));
      expect(after.diagnostics.filter((d) => d.severity !== 'info')).toEqual(before.diagnostics.filter((d) => d.severity !== 'info'));
      expect(after.surface.nodes).toEqual(before.surface.nodes.map((s) => (s >= seq ? s + 1 : s)));
      expect(after.messages).toEqual(before.messages);
      expect(after.requests.map((q) => q.messages)).toEqual(before.requests.map((q) => q.messages));
    },
  );
});
