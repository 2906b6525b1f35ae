import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inspect } from '../../src/core/inspect.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { applyEdits } from '../../src/core/whatif/apply-edits.ts';
import { callTokensOf, requestTokens, whatIf } from '../../src/core/whatif/whatif.ts';
import { compareRuns } from '../../src/core/compare/compare.ts';
import { diffDocument } from '../../src/core/compare/report.ts';
import { loadRun } from '../../src/core/compare/run.ts';
import { corpusLogs } from './corpus-dir.ts';

/** What-if edits (docs/whatif.md) on every real DSH log of the corpus. */
const logs = corpusLogs().map((l) => ({ ...l, text: fs.readFileSync(l.file, 'utf8') }));
const transcriptText = (text: string) => JSON.stringify(inspect(readLogText(text)).transcript);

describe('what if, on the real DSH corpus', () => {
  it.each(logs.map((l) => [l.name, l] as const))('%s: each call\'s tokens from the surface totals equal its estimate from its messages', (_name, log) => {
    const loaded = loadRun(readLogText(log.text), log.name);
    const fast = callTokensOf({ requests: loaded.run.requests, surfaceTotals: loaded.prompts.surfaceTotals });
    for (const r of loaded.run.requests) expect(fast(r), `call ${r.index + 1}`).toBe(requestTokens(r));
  });

  it.each(logs.map((l) => [l.name, l] as const))('%s: no edit rebuilds the same events; each edit kind does what it says', (_name, log) => {
    const read = readLogText(log.text);
    const same = applyEdits(log.text, read, []);
    expect(same.problems).toEqual([]);
    expect(JSON.stringify(readLogText(same.text).events)).toBe(JSON.stringify(read.events));
    if (!read.events.length) return;
    const before = inspect(read);
    expect(whatIf(log.text, [], log.name, read).report.identical).toBe(before.verdict !== 'not-dsh');

    // Drop the first event after the header's: every later seq moves down by one (a trimmed fixture's gaps kept).
    const first = read.events[0].seq;
    const dropped = readLogText(applyEdits(log.text, read, [{ kind: 'drop', seq: first }]).text);
    expect(dropped.events.length).toBe(read.events.length - 1);
    expect(dropped.events.map((e) => e.seq)).toEqual(read.events.slice(1).map((e) => e.seq - 1));

    // New text for the last appended tool result or user message: the human transcript shows it.
    const message = read.events.findLast((e) => (e.type === 'tool/result' || e.type === 'user/message') && e.surfaceOp === 'append');
    if (message) {
      const edit = whatIf(log.text, [{ kind: 'text', seq: message.seq, text: 'WHATIF-NEW-TEXT' }], log.name, read);
      expect(edit.report.problems).toEqual([]);
      expect(transcriptText(edit.editedText)).toContain('WHATIF-NEW-TEXT');
      expect(edit.report.verdictAfter.kind).toBe(edit.report.verdictBefore.kind);
      // Its comparison resumed the original's trails before the edit: it equals one that read both logs from the start.
      expect(edit.report.comparison).toEqual(diffDocument(compareRuns(loadRun(read, log.name).run, loadRun(readLogText(edit.editedText), `${log.name} (what if)`).run)));
    }

    // A user message inserted before the last turn: on the transcript, one more event.
    const turn = read.events.findLast((e) => e.type === 'turn/start');
    if (turn && !read.events.some((e) => e.seq > turn.seq && e.surfaceOp && e.surfaceOp !== 'append')) {
      const insert = whatIf(log.text, [{ kind: 'insert-user', before: turn.seq, text: 'WHATIF-INSERTED' }], log.name, read);
      expect(readLogText(insert.editedText).events.length).toBe(read.events.length + 1);
      expect(transcriptText(insert.editedText)).toContain('WHATIF-INSERTED');
    }

    // Undo the last replace: the nodes it shadowed are on the edited log's final surface again.
    const replace = before.verdict === 'ok' ? read.events.findLast((e) => e.surfaceOp && e.surfaceOp !== 'append') : undefined;
    if (replace) {
      const undo = applyEdits(log.text, read, [{ kind: 'undo-replace', seq: replace.seq }]);
      if (undo.problems.length) return;
      const after = inspect(readLogText(undo.text));
      const shadowed = before.surface.nodes.includes(replace.seq) ? (replace.sourceEventSeqs ?? []).filter((s) => !before.surface.nodes.includes(s)) : [];
      for (const s of shadowed) {
        const moved = undo.mapSeq(s);
        if (moved !== null && read.events[s]?.surfaceOp) expect(after.surface.nodes).toContain(moved);
      }
    }
  });
});
