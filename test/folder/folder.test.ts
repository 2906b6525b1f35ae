// Issue #23: a sessions folder summarised log by log (one streaming pass), as
// trees, searched across; and `summary <dir> --ndjson` on the command line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { summarizeRun } from '../../src/core/compare/summary.ts';
import { loadRun } from '../../src/core/compare/run.ts';
import { summarizeLog, type LogSummary } from '../../src/core/folder/summary.ts';
import { sessionTree } from '../../src/core/folder/tree.ts';
import { eventsPanelMatcher, searchLog } from '../../src/core/folder/search.ts';
import { generateFork, generateLog } from '../../src/core/generate/generate-log.ts';
import { inspect } from '../../src/core/inspect.ts';
import { readLog } from '../../src/core/log/reader.ts';
import { bundledCommand, cliBundle, TSX, CLI } from '../helpers/open-cli.ts';
import { loadedForSearch, queriesFrom } from '../helpers/search-oracle.ts';

const enc = new TextEncoder();
const summarize = (file: string, bytes: Uint8Array) => summarizeLog(() => [bytes], { file, size: bytes.length });

/** A folder as DSH lays one out, plus what else people keep there. */
function makeFolder(): { dir: string; files: Record<string, Uint8Array> } {
  const { parent, child } = generateFork({ dialect: 'v4', seed: 3, turns: 3, afterTurn: 1, childTurns: 1 });
  const childHeader = JSON.parse(child.lines[0]);
  const childText = [JSON.stringify({ ...childHeader, parentSession: (parent.header as { id: string }).id }), ...child.lines.slice(1)].join('\n') + '\n';
  const orphanLines = generateLog({ dialect: 'v0', seed: 9, turns: 2 }).lines;
  const orphan = [JSON.stringify({ ...JSON.parse(orphanLines[0]), id: 'orphan-1', parentSession: 'not-in-this-folder' }), ...orphanLines.slice(1)].join('\n') + '\n';
  const files: Record<string, Uint8Array> = {
    'project/a/parent.jsonl': enc.encode(parent.text),
    'project/a/child.jsonl': enc.encode(childText),
    'project/b/orphan.jsonl.gz': zlib.gzipSync(enc.encode(orphan)),
    'project/dsh021.jsonl': enc.encode(generateLog({ dialect: 'v4', seed: 4, turns: 2, dsh021: true }).text),
    'notes.md': enc.encode('# my notes\nnot a log\n'),
    'empty.jsonl': new Uint8Array(0),
    'screenshot.png': Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) & 0xff),
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-folder-'));
  for (const [rel, bytes] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), bytes);
  }
  return { dir, files };
}

const folder = makeFolder();
const NOT_LOGS = ['notes.md', 'empty.jsonl', 'screenshot.png'];

describe('a log summary agrees with the full load', () => {
  it.each(Object.keys(folder.files).filter((f) => !NOT_LOGS.includes(f)))('%s: events, calls, turns, tokens, verdict as inspect and the compare summary count them', async (rel) => {
    const bytes = folder.files[rel];
    const s = await summarize(rel, bytes);
    const read = await readLog([bytes]);
    const full = inspect(read);
    const run = summarizeRun(loadRun(await readLog([bytes]), rel).run);
    expect(s.isLog).toBe(true);
    expect(s.events).toBe(full.eventCount);
    expect(s.events).toBeGreaterThan(50);
    expect(s.calls).toBe(full.requests.length);
    expect(s.calls).toBeGreaterThan(0);
    expect({ turns: s.turns, in: s.tokens.in, out: s.tokens.out, cache: s.tokens.cacheReads, compactions: s.compactions })
      .toEqual({ turns: run.turns, in: run.tokensIn, out: run.tokensOut, cache: run.cacheReads, compactions: run.compactions });
    expect(s.tokens.in).toBeGreaterThan(0);
    expect(s.lastTurn?.outcome).toBe(run.turnOutcomes.at(-1)?.outcome);
    expect({ ok: s.ok, verdict: s.verdict }).toEqual({ ok: full.ok, verdict: full.verdict });
    expect(s.title).toBe(full.projections.title?.value ?? null);
    expect(s.id).toBe(full.header?.id);
    expect(s.models.length).toBeGreaterThan(0);
    expect(s.modelUse.reduce((n, m) => n + m.calls, 0)).toBe(s.calls);
    expect(s.cost).toBeNull();
  });

  it('a log DSH refuses (a seq gap) is marked, with its errors counted', async () => {
    const lines = generateLog({ dialect: 'v4', seed: 5, turns: 2 }).lines;
    const gap = enc.encode(lines.filter((l) => !l.includes('"seq":20,')).join('\n'));
    const s = await summarize('gap.jsonl', gap);
    expect(s).toMatchObject({ isLog: true, ok: false, verdict: 'dsh-refuses' });
    expect(s.findings.errors).toBeGreaterThan(0);
    expect(s.events).toBe(inspect(await readLog([gap])).eventCount);
  });

  it('reads a log once; a look-back at an event the pass let go reads it again, keeping all, and still agrees with the full load', async () => {
    const lines = generateLog({ dialect: 'v4', seed: 12, turns: 40 }).lines;
    const rows = lines.slice(1).map((l) => JSON.parse(l));
    const opens = async (text: string) => {
      let n = 0;
      const bytes = enc.encode(text);
      const s = await summarizeLog(() => { n++; return [bytes]; }, { file: 'x.jsonl', size: bytes.length });
      return { s, n, full: inspect(await readLog([bytes])) };
    };
    const clean = await opens(lines.join('\n') + '\n');
    expect(clean.n).toBe(1);
    expect(clean.s.events).toBeGreaterThan(1000);
    // A developer message naming an early turn/start as its request header: a broken reference, long let go.
    const last = rows.at(-1);
    const early = rows.find((r) => r.type === 'turn/start');
    const dev = { type: 'developer/message', seq: last.seq + 1, time: last.time, data: { turn: 40, step: 9, message: { id: 'dev-x', role: 'developer', source: { kind: 'tool-registry' }, content: [{ type: 'tool-addition', toolName: 'web_fetch' }] }, headerSeq: early.seq }, surfaceOp: 'append' };
    const broken = await opens([...lines, JSON.stringify(dev)].join('\n') + '\n');
    expect(broken.n).toBe(2);
    expect({ ok: broken.s.ok, verdict: broken.s.verdict, errors: broken.s.findings.errors, events: broken.s.events })
      .toEqual({ ok: broken.full.ok, verdict: broken.full.verdict, errors: broken.full.diagnostics.filter((d) => d.severity === 'error').length, events: broken.full.eventCount });
    expect(broken.s.verdict).toBe('dsh-refuses');
  });

  it.each(NOT_LOGS)('%s is listed as not a log, with the reason', async (rel) => {
    const s = await summarize(rel, folder.files[rel]);
    expect(s.isLog).toBe(false);
    expect(s.verdict).toBe('not-dsh');
    expect(s.notLog).toMatch(/not a DSH session log/i);
    expect(s.events).toBe(0);
  });
});

describe('the folder as trees', () => {
  let rows: LogSummary[];
  beforeAll(async () => { rows = await Promise.all(Object.entries(folder.files).map(([rel, b]) => summarize(rel, b))); });

  it('nests a child under its parent (the fork is marked), keeps an orphan at the top with the missing parent named', () => {
    const roots = sessionTree(rows);
    const parent = roots.find((n) => n.summary.file === 'project/a/parent.jsonl')!;
    expect(parent.children.map((c) => c.summary.file)).toEqual(['project/a/child.jsonl']);
    expect(parent.children[0].summary.fork).toBe(true);
    const orphan = roots.find((n) => n.summary.file === 'project/b/orphan.jsonl.gz')!;
    expect(orphan).toMatchObject({ missingParent: true, children: [] });
    expect(orphan.summary.parentSession).toBe('not-in-this-folder');
    expect(roots.filter((n) => !n.summary.isLog).map((n) => n.summary.file).sort()).toEqual([...NOT_LOGS].sort());
    expect(roots.length).toBe(rows.length - 1);
  });

  it('picks the nearest of parents that share an id, and never loops', () => {
    const [parent] = rows.filter((r) => r.file === 'project/a/parent.jsonl');
    const copy = { ...parent, file: 'elsewhere/parent.jsonl' };
    const loopA = { ...parent, file: 'x/a.jsonl', id: 'A', parentSession: 'B' };
    const loopB = { ...parent, file: 'x/b.jsonl', id: 'B', parentSession: 'A' };
    const roots = sessionTree([copy, ...rows, loopA, loopB]);
    const near = roots.find((n) => n.summary.file === 'project/a/parent.jsonl')!;
    expect(near.children.map((c) => c.summary.file)).toEqual(['project/a/child.jsonl']);
    expect(roots.find((n) => n.summary.file === 'elsewhere/parent.jsonl')!.children).toEqual([]);
    const count = (ns: typeof roots): number => ns.reduce((n, x) => n + 1 + count(x.children), 0);
    expect(count(roots)).toBe(rows.length + 3);
  });
});

describe('search across sessions', () => {
  it('finds a word in the one log that has it, with its seq, as the Events search would', async () => {
    const lines = generateLog({ dialect: 'v0', seed: 7, turns: 2 }).lines;
    const at = lines.findIndex((l) => l.includes('"type":"user/message"'));
    const row = JSON.parse(lines[at]);
    (row.data.message ?? row.data).content[0].text = 'please look at the zanzibar config';
    lines[at] = JSON.stringify(row);
    const matcher = eventsPanelMatcher({ text: 'ZANZIBAR' });
    const found = await searchLog([enc.encode(lines.join('\n'))], matcher);
    expect(found.hits.map((h) => h.seq)).toEqual([row.seq]);
    expect(found.hits[0].preview).toContain('zanzibar');
    const other = await searchLog([folder.files['project/a/parent.jsonl']], matcher);
    expect(other.hits).toEqual([]);
    // The families filter: user messages are in the message family.
    expect((await searchLog([enc.encode(lines.join('\n'))], eventsPanelMatcher({ text: 'zanzibar', families: ['tool'] }))).hits).toEqual([]);
    const many = await searchLog([folder.files['project/a/parent.jsonl']], eventsPanelMatcher({ text: 'assistant' }), { limit: 3 });
    expect(many).toMatchObject({ more: true });
    expect(many.hits.length).toBe(3);
  });
});

describe('search across sessions reads only the lines that may match (issue #15)', () => {
  // What a folder search finds with its line filter and with every line parsed, for text cut from each log.
  const bothWays = async (bytes: Uint8Array, text: string) => {
    const matcher = eventsPanelMatcher({ text });
    const filtered = await searchLog([bytes], matcher, { limit: 1e9 });
    const parsedAll = await searchLog([bytes], { ...matcher, mayMatchLine: null }, { limit: 1e9 });
    return { filtered: filtered.hits, parsedAll: parsedAll.hits };
  };

  // A normalized snapshot (no seq or time on its rows: numbered by position) as well as a log as DSH writes it.
  const snapshotOf = (text: string) => text.split('\n').map((l, i) => {
    if (i === 0 || !l) return l;
    const { seq: _s, time: _t, ...row } = JSON.parse(l);
    return JSON.stringify(row);
  }).join('\n');
  for (const [name, shape] of [['rc.8', { dialect: 'v0', seed: 21 }], ['format 4', { dialect: 'v4', seed: 22 }], ['DSH 0.2.1', { dialect: 'v4', dsh021: true, seed: 23 }]] as const) {
    for (const snapshot of [false, true]) {
      it(`${name}${snapshot ? ', as a snapshot without seqs' : ''}: finds exactly what parsing every line finds`, async () => {
        const written = generateLog({ ...shape, turns: 3 }).text;
        const text = snapshot ? snapshotOf(written) : written;
        const { events } = await loadedForSearch(text);
        const needles = queriesFrom(events, shape.seed, 60).map((q) => q.replace(/^"|"$/g, ''));
        let found = 0;
        for (const needle of needles) {
          const { filtered, parsedAll } = await bothWays(enc.encode(text), needle);
          expect(filtered, needle).toEqual(parsedAll);
          found += parsedAll.length;
        }
        expect(found).toBeGreaterThan(needles.length);
      });
    }
  }

  it('finds what rc.8\'s legacy upgrade prints and its line does not hold (a turn/end "disposed" reads "aborted")', async () => {
    const lines = generateLog({ dialect: 'v0', seed: 24, turns: 2 }).lines;
    const at = lines.findIndex((l) => l.includes('"type":"turn/end"'));
    const row = JSON.parse(lines[at]);
    row.data = { turn: row.data.turn, reason: { kind: 'disposed' } };
    lines[at] = JSON.stringify(row);
    const bytes = enc.encode(lines.join('\n') + '\n');
    const { filtered, parsedAll } = await bothWays(bytes, 'aborted');
    expect(parsedAll.map((h) => h.seq)).toEqual([row.seq]);
    expect(filtered).toEqual(parsedAll);
  });

  it('a text no line holds parses almost no line', async () => {
    const bytes = enc.encode(generateLog({ dialect: 'v4', seed: 25, turns: 4 }).text);
    const lineCount = new TextDecoder().decode(bytes).split('\n').filter(Boolean).length;
    const parse = JSON.parse;
    let parsed = 0;
    JSON.parse = ((t: string, r?: Parameters<typeof parse>[1]) => { parsed++; return parse(t, r); }) as typeof JSON.parse;
    try {
      expect((await searchLog([bytes], eventsPanelMatcher({ text: 'zanzibar' }))).hits).toEqual([]);
    } finally {
      JSON.parse = parse;
    }
    expect(lineCount).toBeGreaterThan(100);
    // The header is parsed; the rest are ruled out by their text.
    expect(parsed).toBeLessThan(5);
  });
});

describe('dsh-devtools summary <dir> --ndjson', () => {
  beforeAll(async () => { await cliBundle(); }, 60_000);

  it('prints one JSON line per file with the table fields, not-logs as such; --fail-on-refused exits 1 only for a refused log', () => {
    const [node, ...bundle] = bundledCommand();
    const out = spawnSync(node, [...bundle, 'summary', folder.dir, '--ndjson', '--fail-on-refused'], { encoding: 'utf8' });
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    const records = out.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(records.map((r) => r.file)).toEqual(Object.keys(folder.files).sort());
    for (const r of records) {
      expect(Object.keys(r).slice(0, 13)).toEqual(['file', 'id', 'title', 'format', 'events', 'turns', 'calls', 'models', 'tokens', 'findings', 'ok', 'verdict', 'parentSession']);
      expect(r.isLog).toBe(!NOT_LOGS.includes(r.file));
    }
    expect(records.find((r) => r.file === 'project/a/child.jsonl').parentSession).toBe(records.find((r) => r.file === 'project/a/parent.jsonl').id);
    const lines = generateLog({ dialect: 'v4', seed: 5, turns: 2 }).lines;
    fs.writeFileSync(path.join(folder.dir, 'project', 'gap.jsonl'), lines.filter((l) => !l.includes('"seq":20,')).join('\n'));
    const refused = spawnSync(node, [...bundle, 'summary', folder.dir, '--ndjson', '--fail-on-refused'], { encoding: 'utf8' });
    expect(refused.status).toBe(1);
    expect(refused.stdout.trim().split('\n').map((l) => JSON.parse(l)).find((r) => r.file === 'project/gap.jsonl')).toMatchObject({ ok: false, verdict: 'dsh-refuses' });
    fs.rmSync(path.join(folder.dir, 'project', 'gap.jsonl'));
  }, 60_000);

  it('runs as `npm run inspect -- summary <dir> --ndjson` (inspect followed by a command name)', () => {
    const out = spawnSync(TSX, [CLI, 'inspect', 'summary', folder.dir, '--ndjson'], { encoding: 'utf8' });
    expect(out.status).toBe(0);
    expect(out.stdout.trim().split('\n')).toHaveLength(Object.keys(folder.files).length);
  }, 60_000);
});
