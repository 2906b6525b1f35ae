import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLogFile } from '../../scripts/node-source.ts';
import { compareRuns } from '../../src/core/compare/compare.ts';
import { explainPair } from '../../src/core/compare/explain.ts';
import { loadRun, type LoadedRun } from '../../src/core/compare/run.ts';
import { corpusDir, corpusLogs } from './corpus-dir.ts';

/**
 * Comparing real runs (issue #20): every corpus log against itself, and
 * every child log (`name.N.jsonl`) against its parent (`name.jsonl`) — the
 * pairs DSH's own snapshot tests wrote: aligned up to the fork cut, the
 * first divergence at the child's first call after it.
 */
const dir = path.join(corpusDir(), 'dsh');
const load = async (file: string): Promise<LoadedRun> => loadRun(await readLogFile(path.join(dir, file)), file);

const pairs = fs.readdirSync(dir).flatMap((f) => {
  const m = f.match(/^(.*)\.\d+(\.v4)?\.jsonl$/);
  const parent = m && `${m[1]}${m[2] ?? ''}.jsonl`;
  return parent && fs.existsSync(path.join(dir, parent)) ? [[parent, f] as const] : [];
});

describe('corpus: a log against itself', () => {
  it.each(corpusLogs().map((l) => [path.basename(l.file)]))('%s', async (file) => {
    const run = (await load(file)).run;
    const report = compareRuns(run, (await load(file)).run);
    expect(report.divergences).toEqual([]);
    expect(report.gaps).toEqual([]);
    expect(report.identical).toBe(run.verdict.kind !== 'not-dsh');
  });
});

describe('corpus: a child against its parent', () => {
  it('covers the parent/child pairs, one of them seeded', () => {
    expect(pairs.length).toBeGreaterThanOrEqual(20);
    expect(pairs.map(([, c]) => c)).toContain('acp-subagent-mixed.2.jsonl');
  });

  it.each(pairs)('%s ← %s', async (parentFile, childFile) => {
    const parent = await load(parentFile);
    const child = await load(childFile);
    const report = compareRuns(parent.run, child.run);
    if (!report.fork) {
      // A grandchild named after the root (name.2 of a depth-two chain): not this parent's child.
      expect(child.run.header?.parentSession).not.toBe(parent.run.header?.id);
      return;
    }
    const { cutSeq, inheritedCalls } = report.fork;
    expect(report.fork.child).toBe('b');
    expect(inheritedCalls).toBe(child.run.requests.filter((r) => r.cut < cutSeq).length);
    const childRows = report.rows.filter((r) => r.b !== null);
    // Aligned up to the fork cut: every inherited call pairs with the parent's call at the same seq, unchanged.
    for (const row of childRows.slice(0, inheritedCalls)) {
      expect(row).toMatchObject({ status: 'same', inherited: true });
      expect(parent.run.requests[row.a!].cut).toBe(child.run.requests[row.b!].cut);
    }
    if (child.run.requests.length === inheritedCalls) return;
    // The first difference is the child's first call after the cut: a divergence, or a gap when the
    // parent made no call there (a parent whose own calls are not in its log).
    // Calls only the parent made may come before it (a parent's retried attempt pairs from the end).
    const own = childRows[inheritedCalls];
    const firstDifference = report.rows.findIndex((r) => r.status !== 'same' && r.status !== 'a-only');
    expect(report.rows[firstDifference]).toBe(own);
    expect(child.run.requests[own.b!].cut).toBeGreaterThanOrEqual(cutSeq);
    if (own.status === 'b-only') {
      expect(report.firstDivergence).toBeNull();
      expect(report.gaps[0]).toMatchObject({ side: 'b', call: inheritedCalls + 1 });
      return;
    }
    expect(report.firstDivergence).toMatchObject({ callB: inheritedCalls + 1, row: firstDifference });
    const row = report.rows[report.firstDivergence!.row];
    const why = explainPair(parent.run.requests[row.a!], child.run.requests[row.b!], row.kinds!);
    expect(why.kinds).toEqual(row.kinds);
    if (why.messages) {
      expect(why.messages.index).toBeLessThanOrEqual(Math.min(why.messages.countA, why.messages.countB));
      expect(why.messages.a ?? why.messages.b).not.toBeNull();
    }
  });
});
