import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseIndex, judgeCase, loadBakeTables, loadSelection } from '../../scripts/bake-lib.ts';

/**
 * The Bake conformance tables (a DSH fork's published test tables for
 * format-3 logs; ../shared/conformance/bake/README.md). Like the real-log
 * corpus they live outside the repo: `BAKE_CONFORMANCE`, default
 * ../shared/conformance/bake/conformance. A missing directory fails with one
 * line. Only the cases test/conformance/bake-selection.json marks as DSH
 * checks run; the rest are Bake-specific and skipped.
 */
function bakeDir(): string {
  const dir = path.resolve(process.env.BAKE_CONFORMANCE ?? '../shared/conformance/bake/conformance');
  if (!fs.existsSync(dir)) throw new Error(`Bake conformance tables not found: ${dir} (set BAKE_CONFORMANCE to the bake/conformance directory)`);
  return dir;
}

const tables = loadBakeTables(bakeDir());
const selection = loadSelection();
const cases = caseIndex(tables);

describe('Bake selection', () => {
  it('names every case of both tables exactly once', () => {
    const keys = selection.cases.map((e) => `${e.table}:${e.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual([...cases.keys()].sort());
  });

  it('selects at least 60 request-derivation and 30 prompt-admission cases, each with a reason', () => {
    const dsh = selection.cases.filter((e) => e.dsh);
    expect(dsh.filter((e) => e.table === 'derivation').length).toBeGreaterThanOrEqual(60);
    expect(dsh.filter((e) => e.table === 'admission').length).toBeGreaterThanOrEqual(30);
    for (const e of selection.cases) expect(e.reason.length, e.id).toBeGreaterThan(20);
  });
});

describe.each(['derivation', 'admission'] as const)('Bake %s cases judged as DSH checks', (table) => {
  const selected = selection.cases.filter((e) => e.table === table && e.dsh);
  it.each(selected.map((e) => [e.id, e] as const))('%s', (_id, entry) => {
    const { c } = cases.get(`${table}:${entry.id}`)!;
    const verdict = judgeCase(entry, c, tables);
    expect(verdict.ok, verdict.detail).toBe(true);
    if (entry.expectCode) expect(verdict.detail.startsWith(`${entry.expectCode}:`), verdict.detail).toBe(true);
  });
});
