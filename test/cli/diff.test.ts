import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateLog, generateVariant } from '../../src/core/generate/generate-log.ts';

const tsx = path.resolve('node_modules/.bin/tsx');

describe('inspect diff A B (issue #20)', () => {
  it('prints the comparison as JSON and as a short report; a non-log is reported, not thrown', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-diff-'));
    const opts = { dialect: 'v4' as const, seed: 7, turns: 3, compactEvery: 0 };
    const a = path.join(dir, 'a.jsonl');
    const b = path.join(dir, 'b.jsonl');
    const junk = path.join(dir, 'notes.txt');
    fs.writeFileSync(a, generateLog(opts).text);
    fs.writeFileSync(b, generateVariant(opts, { atCall: 6, change: 'system' }).text);
    fs.writeFileSync(junk, 'not a log at all\n');

    const doc = JSON.parse(execFileSync(tsx, ['src/cli/main.ts', 'diff', a, b, '--json'], { encoding: 'utf8' }));
    expect(doc.identical).toBe(false);
    expect(doc.calls.a).toBe(doc.calls.b);
    expect(doc.firstDivergence).toMatchObject({ callA: 6, callB: 6, what: 'system' });
    expect(doc.divergences[0]).toEqual(doc.firstDivergence);
    expect(doc.divergences.every((d: { what: string }) => ['config', 'system', 'tools', 'messages'].includes(d.what))).toBe(true);
    expect(doc).not.toHaveProperty('rows');

    const same = JSON.parse(execFileSync(tsx, ['src/cli/main.ts', 'diff', a, a, '--json'], { encoding: 'utf8' }));
    expect(same).toMatchObject({ identical: true, firstDivergence: null, divergences: [] });

    const text = execFileSync(tsx, ['src/cli/main.ts', 'diff', a, junk], { encoding: 'utf8' });
    expect(text).toContain('B is not a DSH session log: nothing to align');
    expect(text).toContain('B (notes.txt): Not a DSH session log');

    const usage = spawnSync(tsx, ['src/cli/main.ts', 'diff', a], { encoding: 'utf8' });
    expect(usage.status).toBe(2);
    const missing = spawnSync(tsx, ['src/cli/main.ts', 'diff', a, path.join(dir, 'nope.jsonl')], { encoding: 'utf8' });
    expect(missing.status).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);
});
