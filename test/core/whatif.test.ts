import { describe, expect, it } from 'vitest';
import { generateFork, generateLog } from '../../src/core/generate/generate-log.ts';
import { loadRun } from '../../src/core/compare/run.ts';
import { inspect } from '../../src/core/inspect.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { parseEdits } from '../../src/core/whatif/edits-schema.ts';
import { callTokensOf, requestTokens, whatIf } from '../../src/core/whatif/whatif.ts';

/** What-if re-folds (docs/whatif.md) on logs our generator writes. */
describe('what if', () => {
  const v4 = generateLog({ dialect: 'v4', seed: 9, turns: 6, compactEvery: 3, imageOffload: true });
  const v0 = generateLog({ dialect: 'v0', seed: 9, turns: 5, compactEvery: 3, packChunks: true });
  const seqOf = (log: typeof v4, pred: (e: (typeof v4.events)[number]) => boolean) => log.events.find(pred)!.seq;

  it('no edit, or dropping an event no request reads, is identical to the original', () => {
    expect(whatIf(v4.text, []).report.identical).toBe(true);
    const feedback = seqOf(v4, (e) => e.type === 'permission/preset' || e.type === 'sandbox/mode' || e.type === 'agent/inbox/spliced');
    const { report } = whatIf(v4.text, [{ kind: 'drop', seq: feedback }]);
    expect(report.problems).toEqual([]);
    expect(report.verdictAfter.kind).toBe('ok');
    expect(report.calls.every((c) => c.tokensBefore === c.tokensAfter)).toBe(true);
  });

  it.each([['v4', v4], ['v0', v0]])('%s: undoing the last compaction brings the shadowed messages back into the next call, exactly', (_name, log) => {
    const replace = log.events.findLast((e) => e.type === 'user/message' && e.surfaceOp && e.surfaceOp !== 'append')!;
    const { report, editedText } = whatIf(log.text, [{ kind: 'undo-replace', seq: replace.seq }]);
    expect(report.problems).toEqual([]);
    expect(report.identical).toBe(false);
    const original = loadRun(readLogText(log.text), 'a').run.requests;
    const edited = loadRun(readLogText(editedText), 'b').run.requests;
    // The last call before the compaction and the first after it.
    const k = original.findIndex((r) => r.cut > replace.seq);
    const before = original[k - 1].loopRequest.messages;
    const after = edited.find((r) => r.turn === original[k].turn && r.step === original[k].step)!;
    expect(after.loopRequest.messages.slice(0, before.length)).toEqual(before);
    expect(requestTokens(after)).toBeGreaterThan(requestTokens(original[k]));
    // The divergence names that call.
    expect(report.firstDivergence).toMatchObject({ callA: k + 1 });
    expect(report.verdictAfter.kind).toBe('ok');
  });

  it('the token and prefix figures are those of a fresh load of the edited bytes', () => {
    const result = v4.events.find((e) => e.type === 'tool/result' && e.surfaceOp === 'append')!;
    const { report, editedText } = whatIf(v4.text, [{ kind: 'text', seq: result.seq, text: 'exit code 0 (edited)' }]);
    const fresh = loadRun(readLogText(editedText), 'fresh').run.requests;
    for (const c of report.calls) {
      if (c.after === null) continue;
      expect(c.tokensAfter).toBe(requestTokens(fresh[c.after - 1]));
      expect(c.prefixAfter).toBe(fresh[c.after - 1].prefix.keptMessages);
    }
    expect(fresh.some((r) => JSON.stringify(r.loopRequest.messages).includes('exit code 0 (edited)'))).toBe(true);
    expect(report.identical).toBe(false);
  });

  it('undoing a compaction a later one starts from: the later one now names a missing node, and the problem says so', () => {
    const replaces = v4.events.filter((e) => e.type === 'user/message' && e.surfaceOp && e.surfaceOp !== 'append');
    const first = replaces[0];
    const later = replaces.find((e) => (e.surfaceOp as { startSeq: number }).startSeq === first.seq);
    expect(later).toBeDefined();
    const { report } = whatIf(v4.text, [{ kind: 'undo-replace', seq: first.seq }]);
    expect(report.problems.some((p) => p.seq === later!.seq && /surfaceOp\.startSeq names an event the edits dropped/.test(p.message))).toBe(true);
    expect(report.verdictAfter.kind).toBe('dsh-refuses');
  });

  it('dropping a node a later replace names as its endpoint: the problem names the reference, the edited log is refused', () => {
    const replace = v4.events.find((e) => e.type === 'user/message' && e.surfaceOp && e.surfaceOp !== 'append')!;
    const start = (replace.surfaceOp as { startSeq: number }).startSeq;
    const { report } = whatIf(v4.text, [{ kind: 'drop', seq: start }]);
    expect(report.problems.some((p) => p.seq === replace.seq && /surfaceOp\.startSeq names an event the edits dropped/.test(p.message))).toBe(true);
    expect(report.verdictAfter.kind).toBe('dsh-refuses');
  });

  it('an inserted user message is on the surface of the next call, and a later compaction over it cites it; seqs after it move by one', () => {
    const turn2 = seqOf(v4, (e) => e.type === 'turn/start' && e.data.turn === 2);
    const { report, editedText } = whatIf(v4.text, [{ kind: 'insert-user', before: turn2, text: 'Also: keep the old API.' }]);
    expect(report.problems).toEqual([]);
    const r = inspect(readLogText(editedText));
    expect(r.verdict).toBe('ok');
    expect(r.eventCount).toBe(v4.events.length + 1);
    expect(r.requests.some((q) => JSON.stringify(q.messages).includes('Also: keep the old API.'))).toBe(true);
  });

  it('a v0 chunk dropped out of a packed row splits the row; the log still reads whole', () => {
    const read = readLogText(v0.text);
    const i = read.origins.findIndex((o) => o.packedIndex === 2);
    const seq = read.events[i].seq;
    const { editedText, report } = whatIf(v0.text, [{ kind: 'drop', seq }]);
    const edited = readLogText(editedText);
    expect(edited.diagnostics.filter((d) => d.code.startsWith('row.'))).toEqual([]);
    expect(edited.events.length).toBe(read.events.length - 1);
    expect(edited.events.map((e) => e.seq)).toEqual(edited.events.map((_, k) => k));
    expect(report.problems.every((p) => /no longer cites dropped seq/.test(p.message))).toBe(true);
  });

  it('an edit of a missing seq, or a text edit of an event without a message, is skipped and said so', () => {
    const turnStart = seqOf(v4, (e) => e.type === 'turn/start');
    const { report } = whatIf(v4.text, [{ kind: 'drop', seq: 99_999 }, { kind: 'text', seq: turnStart, text: 'x' }]);
    expect(report.problems.map((p) => p.edit)).toEqual([0, 1]);
    expect(report.identical).toBe(true);
  });

  it('a text edit of an event another edit drops is reported; an insert before a fork child\'s cut changes its inherited prefix', () => {
    const result = v4.events.find((e) => e.type === 'tool/result' && e.surfaceOp === 'append')!;
    const { report } = whatIf(v4.text, [{ kind: 'drop', seq: result.seq }, { kind: 'text', seq: result.seq, text: 'x' }]);
    expect(report.problems.some((p) => p.edit === 1 && /dropped by another edit/.test(p.message))).toBe(true);
    const { child } = generateFork({ dialect: 'v4', seed: 3, turns: 3, afterTurn: 1, childTurns: 1 });
    const cut = child.events.find((e) => e.type === 'session/end-seed' && e.data?.inherited === true)!.seq;
    const forked = whatIf(child.text, [{ kind: 'insert-user', before: cut, text: 'hi' }]).report;
    expect(forked.problems.some((p) => /inherited prefix/.test(p.message))).toBe(true);
  });

  it('edit lists are checked', () => {
    expect(parseEdits([{ kind: 'drop', seq: 3 }])).toEqual({ ok: true, edits: [{ kind: 'drop', seq: 3 }] });
    expect(parseEdits([{ kind: 'drop', seq: -1 }])).toMatchObject({ ok: false });
    expect(parseEdits({ kind: 'drop' })).toMatchObject({ ok: false });
  });
});

describe('call tokens from the load\'s surface totals', () => {
  it('equal each request\'s estimate derived from its messages, on every call of v0 and v4 logs', () => {
    for (const dialect of ['v0', 'v4'] as const) {
      const loaded = loadRun(readLogText(generateLog({ dialect, seed: 12, turns: 8, compactEvery: 3 }).text), dialect);
      const fast = callTokensOf({ requests: loaded.run.requests, surfaceTotals: loaded.prompts.surfaceTotals });
      expect(loaded.run.requests.length).toBeGreaterThan(5);
      for (const r of loaded.run.requests) expect(fast(r)).toBe(requestTokens(r));
    }
  });
});
