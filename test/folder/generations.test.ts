// A session's generations in one directory (dsh-log-rules L1.2, I4): one
// session, shown as its highest generation with the others as history; in
// the core, in `summary` and in `open <folder>`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generationFindings, generationGroups, generationIndex, generationOfName } from '../../src/core/folder/generations.ts';
import { summarizeLog, type LogSummary } from '../../src/core/folder/summary.ts';
import { sessionTree } from '../../src/core/folder/tree.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { resolveTarget } from '../../src/cli/open/logs.ts';
import { bundledCommand, cliBundle } from '../helpers/open-cli.ts';
import { zstdFrames } from '../helpers/zstd-frames.ts';

const enc = new TextEncoder();

/**
 * A generated log re-headed as one session's generation: its id, and the header version the name
 * says. The generator writes formats 0 and 4; a format-4 log headed 3 or 2 is refused by DSH's
 * rules, which the grouping does not look at.
 */
function generationLog(opts: { dialect: 'v0' | 'v4'; seed: number; id: string; version: number; parentSession?: string }, compressed: boolean): Uint8Array {
  const [header, ...rest] = generateLog({ dialect: opts.dialect, seed: opts.seed, turns: 2 }).lines;
  const head = JSON.stringify({ ...JSON.parse(header), id: opts.id, version: opts.version, ...(opts.parentSession ? { parentSession: opts.parentSession } : {}) });
  // A compressed log as DSH writes one: the header alone in frame 0, the records after it.
  return compressed ? zstdFrames([`${head}\n`, rest.map((l) => `${l}\n`).join('')]) : enc.encode([head, ...rest].join('\n') + '\n');
}

const A = '--proj--/sess-a';
/** Session a migrated twice (v0 → v3 → v4, all compressed), session b, a subagent of a, a lone v4, names that are no generation. */
const FOLDER: Record<string, Uint8Array> = {
  [`${A}/session.jsonl.zstd`]: generationLog({ dialect: 'v0', seed: 1, id: 'sess-a', version: 0 }, true),
  [`${A}/session.v3.jsonl.zstd`]: generationLog({ dialect: 'v4', seed: 2, id: 'sess-a', version: 3 }, true),
  [`${A}/session.v4.jsonl.zstd`]: generationLog({ dialect: 'v4', seed: 3, id: 'sess-a', version: 4 }, true),
  [`${A}/session.lock`]: enc.encode('12345\n'),
  '--proj--/sess-b/session.jsonl': generationLog({ dialect: 'v0', seed: 4, id: 'sess-b', version: 0 }, false),
  '--proj--/child-1/session.jsonl': generationLog({ dialect: 'v0', seed: 5, id: 'child-1', version: 0, parentSession: 'sess-a' }, false),
  '--proj--/sess-c/session.v4.jsonl': generationLog({ dialect: 'v4', seed: 6, id: 'sess-c', version: 4 }, false),
  '--proj--/sess-d/session.v2.jsonl': generationLog({ dialect: 'v4', seed: 7, id: 'sess-d', version: 2 }, false),
  '--proj--/sess-d/session.V4.jsonl': generationLog({ dialect: 'v4', seed: 8, id: 'sess-d-upper', version: 4 }, false),
  '--proj--/sess-d/session.v04.jsonl': generationLog({ dialect: 'v4', seed: 9, id: 'sess-d-zero', version: 4 }, false),
  '--proj--/sess-d/session.v0.jsonl': generationLog({ dialect: 'v0', seed: 10, id: 'sess-d-v0', version: 0 }, false),
  '--proj--/sess-d/session.v4.jsonl.tmp': generationLog({ dialect: 'v4', seed: 11, id: 'sess-d-tmp', version: 4 }, false),
};
const NOT_GENERATIONS = ['--proj--/sess-d/session.V4.jsonl', '--proj--/sess-d/session.v04.jsonl', '--proj--/sess-d/session.v0.jsonl', '--proj--/sess-d/session.v4.jsonl.tmp'];

function writeFolder(files: Record<string, Uint8Array>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-generations-'));
  for (const [rel, bytes] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), bytes);
  }
  return dir;
}

const summarize = (files: Record<string, Uint8Array>) => Promise.all(Object.entries(files).map(([file, bytes]) => summarizeLog(() => [bytes], { file, size: bytes.length })));
const sorted = (files: Record<string, Uint8Array>) => Object.keys(files).sort();

describe('generation file names', () => {
  it('reads the canonical names: session.jsonl[.zstd] is 0, session.v<N>.jsonl[.zstd] is N', () => {
    expect(generationOfName('session.jsonl')).toEqual({ generation: 0, compressed: false });
    expect(generationOfName('session.jsonl.zstd')).toEqual({ generation: 0, compressed: true });
    expect(generationOfName('session.v3.jsonl.zstd')).toEqual({ generation: 3, compressed: true });
    expect(generationOfName('session.v12.jsonl')).toEqual({ generation: 12, compressed: false });
  });

  it.each(['session.V4.jsonl', 'session.v04.jsonl', 'session.v0.jsonl', 'session.v4.jsonl.tmp', 'session.v4.jsonl.zst', 'session.v.jsonl', 'Session.jsonl', 'session.v4.ndjson', 'x.session.v4.jsonl', 'session.lock', `session.v${'9'.repeat(20)}.jsonl`])('%s is no generation', (name) => {
    expect(generationOfName(name)).toBeNull();
  });
});

describe('a folder grouped by session generation', () => {
  const index = generationIndex(sorted(FOLDER));

  it('groups one directory\'s generations: the highest is latest, the rest older, highest first', () => {
    const a = index.byFile.get(`${A}/session.jsonl.zstd`)!;
    expect(a.dir).toBe(A);
    expect(a.latest).toEqual({ file: `${A}/session.v4.jsonl.zstd`, generation: 4, compressed: true });
    expect(a.older.map((g) => [g.file, g.generation])).toEqual([[`${A}/session.v3.jsonl.zstd`, 3], [`${A}/session.jsonl.zstd`, 0]]);
    expect(index.byFile.get(`${A}/session.v4.jsonl.zstd`)).toBe(a);
    expect(index.byFile.has(`${A}/session.lock`)).toBe(false);
  });

  it('a lone session.v4.jsonl is a session of generation 4 with no older ones', () => {
    expect(index.byFile.get('--proj--/sess-c/session.v4.jsonl')).toMatchObject({ latest: { generation: 4 }, older: [] });
  });

  it('names that are not canonical are no generation: they stay files of their own beside the real one', () => {
    for (const file of NOT_GENERATIONS) expect(index.byFile.has(file), file).toBe(false);
    expect(index.byFile.get('--proj--/sess-d/session.v2.jsonl')).toMatchObject({ latest: { generation: 2 }, older: [] });
  });

  it('lists a session\'s older generations directly after its latest, every other file where it was', () => {
    const groups = generationGroups(sorted(FOLDER), index);
    expect(groups.find((g) => g[0].startsWith(A))).toEqual([`${A}/session.lock`]);
    expect(groups).toContainEqual([`${A}/session.v4.jsonl.zstd`, `${A}/session.v3.jsonl.zstd`, `${A}/session.jsonl.zstd`]);
    expect(groups.flat().sort()).toEqual(sorted(FOLDER));
  });

  it('each older generation is an info "Older generation vN present (immutable)"; nothing else for a clean session', () => {
    const findings = generationFindings(index.byFile.get(`${A}/session.v4.jsonl.zstd`)!, () => null);
    expect(findings.map((f) => [f.code, f.severity, f.files])).toEqual([
      ['generation.older', 'info', [`${A}/session.v3.jsonl.zstd`]],
      ['generation.older', 'info', [`${A}/session.jsonl.zstd`]],
    ]);
    expect(findings[0].message).toMatch(/^Older generation v3 present \(immutable\): /);
    expect(generationFindings(index.byFile.get('--proj--/sess-c/session.v4.jsonl')!)).toEqual([]);
  });

  it('a directory mixing .jsonl and .jsonl.zstd generations is a refusing finding naming the files', () => {
    const mixed = generationIndex(['p/s/session.v3.jsonl.zstd', 'p/s/session.v4.jsonl']).sessions[0];
    const [finding] = generationFindings(mixed).filter((f) => f.code === 'generation.mixed-compression');
    expect(finding).toMatchObject({ severity: 'error', refuses: true, files: ['p/s/session.v4.jsonl', 'p/s/session.v3.jsonl.zstd'] });
    expect(finding.message).toBe('p/s mixes compressed and uncompressed generations (session.v3.jsonl.zstd, session.v4.jsonl): DSH refuses a root that mixes .jsonl and .jsonl.zstd');
  });

  it('a header version that is not the file name\'s number is a warning', () => {
    const session = generationIndex(['s/session.v4.jsonl']).sessions[0];
    const findings = generationFindings(session, (f) => (f === 's/session.v4.jsonl' ? 0 : null));
    expect(findings.map((f) => [f.code, f.severity, f.message])).toEqual([['generation.version-mismatch', 'warning', 's/session.v4.jsonl: the header says version 0, the file name generation 4']]);
  });
});

describe('the folder\'s sessions, one row each', () => {
  let rows: LogSummary[];
  beforeAll(async () => { rows = await summarize(FOLDER); });

  it('a migrated session is one node, its v4, with v3 and v0 as older generations; its subagent nests under the v4', () => {
    const roots = sessionTree(rows);
    const files = roots.map((n) => n.summary.file);
    expect(files).not.toContain(`${A}/session.v3.jsonl.zstd`);
    expect(files).not.toContain(`${A}/session.jsonl.zstd`);
    const a = roots.find((n) => n.summary.file === `${A}/session.v4.jsonl.zstd`)!;
    expect(a.summary).toMatchObject({ isLog: true, format: 4, id: 'sess-a', encoding: 'zstd' });
    expect(a.older.map((g) => g.generation)).toEqual([3, 0]);
    expect(a.generationFindings.map((f) => f.code)).toEqual(['generation.older', 'generation.older']);
    expect(a.children.map((c) => c.summary.file)).toEqual(['--proj--/child-1/session.jsonl']);
    for (const file of ['--proj--/sess-b/session.jsonl', '--proj--/sess-c/session.v4.jsonl', ...NOT_GENERATIONS]) {
      expect(roots.find((n) => n.summary.file === file), file).toMatchObject({ older: [], generationFindings: [] });
    }
    // Every file is a row except the two older generations (and the child, nested).
    expect(roots.length).toBe(rows.length - 3);
  });

  it('an older generation stays hidden while its latest is still being read', () => {
    const ready = rows.filter((r) => r.file !== `${A}/session.v4.jsonl.zstd`);
    const roots = sessionTree(ready, generationIndex(sorted(FOLDER)));
    expect(roots.map((n) => n.summary.file).filter((f) => f.startsWith(A))).toEqual([`${A}/session.lock`]);
  });

  it('a header version off its file name is found from the summaries', async () => {
    const [wrong] = await summarize({ 's/session.v4.jsonl': generationLog({ dialect: 'v0', seed: 12, id: 's', version: 0 }, false) });
    expect(sessionTree([wrong])[0].generationFindings.map((f) => f.code)).toEqual(['generation.version-mismatch']);
  });
});

describe('dsh-devtools summary over generations', () => {
  const dir = writeFolder(FOLDER);
  const run = (...args: string[]) => { const [node, ...bundle] = bundledCommand(); return spawnSync(node, [...bundle, 'summary', ...args], { encoding: 'utf8' }); };
  beforeAll(async () => { await cliBundle(); }, 60_000);

  it('--ndjson: every row has generation and latest; the latest lists its older ones, which follow it directly', () => {
    const out = run(dir, '--ndjson');
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    const records = out.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(records.map((r) => r.file).sort()).toEqual(sorted(FOLDER));
    const at = records.findIndex((r) => r.file === `${A}/session.v4.jsonl.zstd`);
    expect(records[at]).toMatchObject({
      generation: 4, latest: true,
      olderGenerations: [{ file: `${A}/session.v3.jsonl.zstd`, generation: 3 }, { file: `${A}/session.jsonl.zstd`, generation: 0 }],
    });
    expect(records[at].generationFindings.map((f: { code: string }) => f.code)).toEqual(['generation.older', 'generation.older']);
    expect(records.slice(at + 1, at + 3).map((r) => [r.file, r.generation, r.latest, r.olderGenerations])).toEqual([
      [`${A}/session.v3.jsonl.zstd`, 3, false, []],
      [`${A}/session.jsonl.zstd`, 0, false, []],
    ]);
    const byFile = new Map(records.map((r) => [r.file, r]));
    expect(byFile.get('--proj--/sess-c/session.v4.jsonl')).toMatchObject({ generation: 4, latest: true, olderGenerations: [], generationFindings: [] });
    expect(byFile.get(`${A}/session.lock`)).toMatchObject({ generation: null, latest: true, isLog: false });
    for (const file of NOT_GENERATIONS) expect(byFile.get(file), file).toMatchObject({ generation: null, latest: true, isLog: true });
    // The generation fields come right after the first thirteen.
    expect(Object.keys(records[at]).slice(13, 17)).toEqual(['generation', 'latest', 'olderGenerations', 'generationFindings']);
  }, 60_000);

  it('the table has one row per session, its older generations noted', () => {
    const out = run(dir);
    expect(out.status).toBe(0);
    const lines = out.stdout.split('\n');
    expect(lines[0]).toMatch(/ older generations$/);
    expect(lines.find((l) => l.startsWith(`${A}/session.v4.jsonl.zstd `))).toMatch(/ v3, v0$/);
    expect(lines.filter((l) => l.startsWith(`${A}/session.v3`) || l.startsWith(`${A}/session.jsonl`))).toEqual([]);
    expect(out.stdout).toContain('logs (and 2 older generations), 1 other files');
  }, 60_000);

  it('a directory mixing compressed and uncompressed generations is reported, and fails --fail-on-refused', () => {
    const mixed = writeFolder({
      'p/s/session.jsonl.zstd': generationLog({ dialect: 'v0', seed: 13, id: 's', version: 0 }, true),
      'p/s/session.v4.jsonl': generationLog({ dialect: 'v4', seed: 14, id: 's', version: 4 }, false),
    });
    const clean = run(mixed, '--ndjson');
    expect(clean.status).toBe(0);
    const records = clean.stdout.trim().split('\n').map((l) => JSON.parse(l));
    // Each log alone is one DSH restores: the exit below is the mix.
    expect(records.map((r) => [r.file, r.ok])).toEqual([['p/s/session.v4.jsonl', true], ['p/s/session.jsonl.zstd', true]]);
    expect(records[0].generationFindings[0]).toMatchObject({ code: 'generation.mixed-compression', severity: 'error', refuses: true, files: ['p/s/session.v4.jsonl', 'p/s/session.jsonl.zstd'] });
    expect(run(mixed, '--ndjson', '--fail-on-refused').status).toBe(1);
    const table = run(mixed);
    expect(table.stdout).toContain('error: p/s mixes compressed and uncompressed generations (session.jsonl.zstd, session.v4.jsonl): DSH refuses a root that mixes .jsonl and .jsonl.zstd\n');
  }, 60_000);
});

describe('open <folder> picks a session by its highest generation', () => {
  it('opens the newest session at its highest generation, even when an older generation\'s file is newer; its older ones follow it', () => {
    const dir = writeFolder(FOLDER);
    const at = (rel: string, year: number) => fs.utimesSync(path.join(dir, rel), new Date(year, 0, 1), new Date(year, 0, 1));
    for (const rel of Object.keys(FOLDER)) at(rel, 2020);
    at(`${A}/session.v4.jsonl.zstd`, 2023);
    at(`${A}/session.v3.jsonl.zstd`, 2024);
    at('--proj--/sess-b/session.jsonl', 2022);
    const target = resolveTarget(dir);
    expect(target.entries.slice(0, 4).map((e) => [e.rel, e.olderGenerationOf])).toEqual([
      [`${A}/session.v4.jsonl.zstd`, undefined],
      [`${A}/session.v3.jsonl.zstd`, `${A}/session.v4.jsonl.zstd`],
      [`${A}/session.jsonl.zstd`, `${A}/session.v4.jsonl.zstd`],
      ['--proj--/sess-b/session.jsonl', undefined],
    ]);
    expect(target.notes).toEqual([]);
  });

  it('notes a directory that mixes compressed and uncompressed generations', () => {
    const dir = writeFolder({ 'p/s/session.jsonl.zstd': FOLDER[`${A}/session.jsonl.zstd`], 'p/s/session.v4.jsonl': FOLDER['--proj--/sess-c/session.v4.jsonl'] });
    const target = resolveTarget(dir);
    expect(target.entries[0].rel).toBe('p/s/session.v4.jsonl');
    expect(target.notes).toEqual(['p/s mixes compressed and uncompressed generations (session.jsonl.zstd, session.v4.jsonl): DSH refuses a root that mixes .jsonl and .jsonl.zstd']);
  });
});
