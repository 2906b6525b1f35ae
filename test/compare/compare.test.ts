import { describe, expect, it } from 'vitest';
import { compareRuns, type CompareReport } from '../../src/core/compare/compare.ts';
import { explainPair } from '../../src/core/compare/explain.ts';
import { diffDocument, diffText } from '../../src/core/compare/report.ts';
import { loadRun, type LoadedRun } from '../../src/core/compare/run.ts';
import { buildTrails, MessageIdentity, sharedCalls } from '../../src/core/compare/trail.ts';
import { applyEdits, planEdits } from '../../src/core/whatif/apply-edits.ts';
import type { Edit } from '../../src/core/whatif/edits.ts';
import { contentHash } from '../../src/core/requests/hash.ts';
import { generateFork, generateLog, generateVariant, type GenerateOptions, type RunVariant } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { SURFACE_CHANGE } from '../../src/core/replay/replay-index.ts';
import type { ModelRequest } from '../../src/core/requests/build.ts';

/**
 * Comparing two runs (issue #20) on generated logs: a log against itself
 * and a renamed copy, pairs from one seed with one injected change at call
 * k, a fork child against its parent, and input that is not a log.
 */
const load = (text: string, name = 'log.jsonl'): LoadedRun => loadRun(readLogText(text), name);

/** A call in the middle of the log that is the first attempt of a step after the first (a tool result precedes it). */
function middleCall(run: LoadedRun): number {
  const calls = run.run.requests;
  const k = calls.findIndex((r, i) => i >= calls.length / 3 && r.attempt === 1 && r.step > 1);
  expect(k).toBeGreaterThan(0);
  return k + 1;
}

function expectSameBefore(report: CompareReport, k: number): void {
  const before = report.rows.filter((r) => r.a !== null && r.a < k - 1);
  expect(before).toHaveLength(k - 1);
  expect(before.every((r) => r.status === 'same' && r.b === r.a)).toBe(true);
}

describe('compare: a run against itself', () => {
  for (const dialect of ['v0', 'v4'] as const) {
    it(`${dialect}: identical, every call aligned, and a copy under another session id is still identical`, () => {
      const text = generateLog({ dialect, seed: 21, turns: 5, compactEvery: 2, imageOffload: true }).text;
      const a = load(text);
      const self = compareRuns(a.run, load(text).run);
      expect(self.identical).toBe(true);
      expect(self.firstDivergence).toBeNull();
      expect(self.divergences).toEqual([]);
      expect(self.gaps).toEqual([]);
      expect(self.calls).toEqual({ a: a.run.requests.length, b: a.run.requests.length, aligned: a.run.requests.length });
      expect(self.rows.every((r, i) => r.a === i && r.b === i && r.status === 'same')).toBe(true);

      const lines = text.split('\n');
      const head = JSON.parse(lines[0]);
      head.id = '99999999-9999-4999-8999-999999999999';
      const renamed = load([JSON.stringify(head), ...lines.slice(1)].join('\n'));
      // The exact requests differ only in sessionId (prompt-and-requests §8: it names the log).
      expect(renamed.run.requests[0].hash).not.toBe(a.run.requests[0].hash);
      const copy = compareRuns(a.run, renamed.run);
      expect(copy.identical).toBe(true);
      expect(copy.divergences).toEqual([]);
      expect(copy.fork).toBeNull();
    });
  }
});

describe('compare: one injected change at call k', () => {
  const cases: [GenerateOptions['dialect'], RunVariant['change']][] = (['v0', 'v4'] as const).flatMap((d) => (['system', 'model', 'tool-result', 'extra-call'] as const).map((c) => [d, c] as [typeof d, typeof c]));
  it.each(cases)('%s, %s', (dialect, change) => {
    const opts: GenerateOptions = { dialect, seed: 5, turns: 5, compactEvery: 0 };
    const a = load(generateLog(opts).text, 'a.jsonl');
    const k = middleCall(a);
    const b = load(generateVariant(opts, { atCall: k, change }).text, 'b.jsonl');
    const report = compareRuns(a.run, b.run);
    expect(report.identical).toBe(false);
    expectSameBefore(report, k);
    const first = report.firstDivergence;
    if (change === 'extra-call') {
      // The inserted attempt is a gap on B's side; the attempt that settled the step pairs with A's.
      expect(first).toBeNull();
      expect(report.gaps).toEqual([expect.objectContaining({ side: 'b', call: k, attempt: 1 })]);
      expect(b.run.requests[k - 1].outcome).toBe('error');
      expect(report.calls).toEqual({ a: a.run.requests.length, b: a.run.requests.length + 1, aligned: a.run.requests.length });
      expect(report.rows.filter((r) => r.status !== 'b-only').every((r) => r.status === 'same')).toBe(true);
      return;
    }
    expect(first).toMatchObject({ callA: k, callB: k, seqA: a.run.requests[k - 1].cut, seqB: b.run.requests[k - 1].cut });
    const ra = a.run.requests[k - 1];
    const rb = b.run.requests[k - 1];
    const why = explainPair(ra, rb, first!.kinds);
    if (change === 'model') {
      expect(first!.what).toBe('config');
      expect(why.config).toEqual([{ key: 'model', a: ra.config!.model, b: rb.config!.model }]);
      expect(ra.config!.model).not.toBe(rb.config!.model);
    } else if (change === 'system') {
      expect(first!.what).toBe('system');
      expect(first!.kinds.includes('config')).toBe(false);
      // One section added at the end; the rest of the prompt is unchanged.
      expect(why.system!.sections!.filter((p) => p.kind !== 'same')).toEqual([{ kind: 'added', text: 'Answer in one short paragraph unless the user asks for detail.' }]);
    } else {
      expect(first!.what).toBe('messages');
      expect(first!.kinds).toEqual(['messages']);
      // The first differing message is the changed tool result, and the explainer finds the same index.
      expect(why.messages!.index).toBe(first!.messageIndex);
      expect(why.messages!.b!.text).toContain('1 file changed on disk');
      expect(why.messages!.a!.text).not.toContain('1 file changed on disk');
      expect(why.messages!.a!.role).toBe(dialect === 'v4' ? 'tool' : 'user');
      // The tool result was appended after call k−1: every message that call saw is kept.
      expect(first!.messageIndex).toBeGreaterThanOrEqual(a.run.requests[k - 2].messageCount);
      expect(ra.messages.slice(0, first!.messageIndex)).toEqual(rb.messages.slice(0, first!.messageIndex));
    }
  });
});

describe('compare: a fork child against its parent', () => {
  for (const dialect of ['v0', 'v4'] as const) {
    it(`${dialect}: aligned up to the fork cut, first divergence at the child's first own call`, () => {
      const { parent, child } = generateFork({ dialect, seed: 8, turns: 4, afterTurn: 2, childTurns: 2 });
      const p = load(parent.text, 'parent.jsonl');
      const c = load(child.text, 'child.jsonl');
      const report = compareRuns(p.run, c.run);
      const marker = readLogText(child.text).events.findIndex((e) => e.type === 'session/end-seed');
      expect(report.fork).toMatchObject({ child: 'b', cutSeq: marker });
      const inherited = c.run.requests.filter((r) => r.cut < marker).length;
      expect(inherited).toBeGreaterThan(2);
      expect(report.fork!.inheritedCalls).toBe(inherited);
      expect(report.rows.slice(0, inherited).every((r) => r.status === 'same' && r.inherited)).toBe(true);
      expect(report.firstDivergence).toMatchObject({ callB: inherited + 1 });
      expect(report.firstDivergence!.seqB).toBeGreaterThan(marker);
      // Seen from the child's side the relation holds the same way round.
      expect(compareRuns(c.run, p.run).fork).toMatchObject({ child: 'a', cutSeq: marker, inheritedCalls: inherited });
    });
  }
});

describe('compare: input that is not a comparable log', () => {
  it('a non-log: what can be compared is listed, the rest is explained, nothing throws', () => {
    const a = load(generateLog({ dialect: 'v4', seed: 2, turns: 2 }).text, 'a.jsonl');
    const junk = load('this is not a log\n{"also": "not one"}\n', 'notes.txt');
    const report = compareRuns(a.run, junk.run);
    expect(report.identical).toBe(false);
    expect(report.calls).toEqual({ a: a.run.requests.length, b: 0, aligned: 0 });
    expect(report.gaps.map((g) => g.side)).toEqual(a.run.requests.map(() => 'a'));
    expect(report.notes.map((n) => [n.side, n.kind])).toEqual([['b', 'not-dsh']]);
    expect(report.notes[0].message).toMatch(/^B \(notes\.txt\): Not a DSH session log/);
    expect(diffText(report, { a: 'a.jsonl', b: 'notes.txt' })).toContain('B is not a DSH session log: nothing to align');
    // Two non-logs are not "identical" either.
    expect(compareRuns(junk.run, junk.run).identical).toBe(false);
  });

  it('a log DSH refuses: its calls are compared and the note names where it breaks', () => {
    const text = generateLog({ dialect: 'v0', seed: 3, turns: 3 }).text;
    const lines = text.split('\n');
    // Drop one event row in the middle: a seq gap (log-and-surface §2.2), which DSH refuses.
    const at = lines.findIndex((l, i) => i > lines.length / 2 && l.includes('"type":"step/end"'));
    const broken = load([...lines.slice(0, at), ...lines.slice(at + 1)].join('\n'), 'broken.jsonl');
    expect(broken.run.verdict.kind).toBe('dsh-refuses');
    const report = compareRuns(load(text).run, broken.run);
    const note = report.notes.find((n) => n.kind === 'dsh-refuses');
    expect(note).toMatchObject({ side: 'b' });
    expect(note!.message).toContain('DSH would refuse to restore');
    expect(report.calls.aligned).toBeGreaterThan(0);
    expect(report.rows.slice(0, 3).every((r) => r.status === 'same')).toBe(true);
  });
});

describe('compare: message trails', () => {
  /** The trail's identity of a call, recomputed from its whole derived context. */
  function directSignatures(requests: readonly ModelRequest[]): string[] {
    const identity = new MessageIdentity();
    return requests.map((r) => r.messages.reduce((chain, m) => contentHash(`${chain}|${identity.hash(m)}`), '0'));
  }

  for (const opts of [
    { dialect: 'v0', seed: 31, turns: 8, compactEvery: 3, imageOffload: true },
    { dialect: 'v4', seed: 32, turns: 8, compactEvery: 3, imageOffload: true, dsh021: true },
  ] as GenerateOptions[]) {
    it(`${opts.dialect}: equal the whole-context identities, and seek a call's surface only after a rewrite`, () => {
      const loaded = load(generateLog(opts).text);
      const run = loaded.run;
      let seeks = 0;
      const surfaceBefore = run.surfaceBefore!;
      const trails = buildTrails({ ...run, surfaceBefore: (cut) => { seeks++; return surfaceBefore(cut); } });
      expect(trails.trails.map((t) => t.sig)).toEqual(directSignatures(run.requests));
      // A call derives its context only when something other than an append happened since the previous call.
      const { seq, surfaceChange } = loaded.replay.index.columns;
      const idx = (s: number) => Array.prototype.findIndex.call(seq, (x: number) => x === s);
      let rewrites = 0;
      for (let i = 1; i < run.requests.length; i++) {
        for (let j = idx(run.requests[i - 1].cut); j < idx(run.requests[i].cut); j++) {
          if (surfaceChange[j] === SURFACE_CHANGE.replace || surfaceChange[j] === SURFACE_CHANGE.project) { rewrites++; break; }
        }
      }
      expect(rewrites).toBeGreaterThan(0);
      expect(seeks).toBe(1 + rewrites);
    });
  }
});

describe('compare: an edited run resumes the original\'s trails', () => {
  for (const opts of [
    { dialect: 'v0', seed: 33, turns: 8, compactEvery: 3, imageOffload: true },
    { dialect: 'v4', seed: 34, turns: 8, compactEvery: 2, dsh021: true },
  ] as GenerateOptions[]) {
    it(`${opts.dialect}: resumed at every shared call, the report equals the one built from the start`, () => {
      const text = generateLog(opts).text;
      const a = load(text, 'a.jsonl');
      const events = readLogText(text).events;
      // Edits at several places: a message's new text, a drop, an undone replace.
      const replace = events.findLast((e) => e.surfaceOp !== undefined && e.surfaceOp !== 'append')!;
      const message = events.find((e, i) => i > events.length / 2 && e.type === 'tool/result' && e.surfaceOp === 'append')!;
      const cases: Edit[][] = [[{ kind: 'text', seq: message.seq, text: 'changed' }], [{ kind: 'drop', seq: message.seq }], [{ kind: 'undo-replace', seq: replace.seq }]];
      const builtA = buildTrails(a.run);
      for (const edits of cases) {
        const b = load(applyEdits(text, readLogText(text), edits).text, 'b.jsonl');
        const before = planEdits(readLogText(text), edits).sharedBefore;
        const shared = sharedCalls(a.run, b.run, before);
        expect(shared, 'the calls before the edit are shared').toBeGreaterThan(0);
        const fresh = buildTrails(b.run);
        const resumed = buildTrails(b.run, { run: a.run, from: builtA, before });
        expect(resumed.trails).toEqual(fresh.trails);
        expect([...resumed.idsAfter]).toEqual([...fresh.idsAfter]);
        expect(compareRuns(a.run, b.run, { a: builtA, b: resumed })).toEqual(compareRuns(a.run, b.run));
      }
    });
  }
});

describe('compare: the CLI report', () => {
  it('prints the first difference and every difference; the JSON has the documented fields', () => {
    const opts: GenerateOptions = { dialect: 'v4', seed: 5, turns: 4, compactEvery: 0 };
    const a = load(generateLog(opts).text, 'a.jsonl');
    const k = middleCall(a);
    const report = compareRuns(a.run, load(generateVariant(opts, { atCall: k, change: 'model' }).text, 'b.jsonl').run);
    const text = diffText(report, { a: 'a.jsonl', b: 'b.jsonl' });
    expect(text).toContain(`first    call ${k} of A (seq ${report.firstDivergence!.seqA}) vs call ${k} of B (seq ${report.firstDivergence!.seqB}): config differs`);
    expect(text).toContain(`differences (${report.divergences.length}):`);
    const doc = JSON.parse(JSON.stringify(diffDocument(report)));
    expect(Object.keys(doc)).toEqual(['identical', 'calls', 'firstDivergence', 'divergences', 'gaps', 'fork', 'notes', 'summary']);
    expect(doc.firstDivergence).toMatchObject({ callA: k, callB: k, what: 'config' });
    expect(doc.summary.a).toMatchObject({ name: 'a.jsonl', calls: a.run.requests.length, turns: 4, verdict: 'ok' });
    expect(doc.summary.a.turnOutcomes).toEqual([1, 2, 3, 4].map((turn) => ({ turn, outcome: 'completed' })));
    expect(doc.summary.a.tokensIn).toBe(a.run.requests.reduce((n, r) => n + (r.usage?.inputTokens ?? 0), 0));
  });
});
