// Issue #23 on the real corpus: `summary` over ../shared/corpus/dsh gives one
// line per log whose events equal DSH's reference eventCount, with the logs
// DSH refuses marked; and the summary's verdict is the full load's.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarizeLog } from '../../src/core/folder/summary.ts';
import { sessionTree } from '../../src/core/folder/tree.ts';
import { inspect } from '../../src/core/inspect.ts';
import { readLogFile } from '../../scripts/node-source.ts';
import { CLI, TSX } from '../helpers/open-cli.ts';
import { corpusDir, corpusLogs } from './corpus-dir.ts';

const logs = corpusLogs();

describe('summary over the corpus folder', () => {
  const out = spawnSync(TSX, [CLI, 'inspect', 'summary', path.join(corpusDir(), 'dsh'), '--ndjson'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const records = out.stdout.trim().split('\n').map((l) => JSON.parse(l));

  it('one line per file, every one a log', () => {
    expect(out.status).toBe(0);
    expect(records.map((r) => r.file)).toEqual(fs.readdirSync(path.join(corpusDir(), 'dsh')).sort());
    expect(records.every((r) => r.isLog)).toBe(true);
    expect(records.length).toBeGreaterThanOrEqual(100);
  });

  it.each(logs.filter((l) => l.expected).map((l) => [l.name, l] as const))('%s: events = the reference eventCount, refused when DSH refuses', (_name, log) => {
    const r = records.find((x) => x.file === path.basename(log.file))!;
    if (log.expected.eventCount !== null) expect(r.events).toBe(log.expected.eventCount);
    if (log.expected.ok === false) expect(r).toMatchObject({ ok: false, verdict: 'dsh-refuses' });
  });

  it.each(logs.map((l) => [l.name, l] as const))('%s: the streaming summary agrees with the full load (verdict, ok, calls, errors)', async (_name, log) => {
    const s = await summarizeLog(() => fs.createReadStream(log.file) as AsyncIterable<Uint8Array>, { file: log.name, size: fs.statSync(log.file).size });
    const full = inspect(await readLogFile(log.file));
    expect({ verdict: s.verdict, ok: s.ok, calls: s.calls, events: s.events, errors: s.findings.errors })
      .toEqual({ verdict: full.verdict, ok: full.ok, calls: full.requests.length, events: full.eventCount, errors: full.diagnostics.filter((d) => d.severity === 'error').length });
  });

  it('subagent children nest under their parents', () => {
    const roots = sessionTree(records);
    const parent = roots.find((n) => n.summary.file === 'acp-subagent-multi.jsonl')!;
    expect(parent.children.map((c) => c.summary.file)).toEqual(['acp-subagent-multi.1.jsonl', 'acp-subagent-multi.2.jsonl']);
    const mixed = roots.find((n) => n.summary.file === 'acp-subagent-mixed.jsonl')!;
    expect(mixed.children.map((c) => [c.summary.file, c.summary.fork])).toEqual([['acp-subagent-mixed.1.jsonl', false], ['acp-subagent-mixed.2.jsonl', true]]);
    // fixture-record-rec-pin.1 names a parent id no log here has.
    expect(roots.find((n) => n.summary.file === 'fixture-record-rec-pin.1.jsonl')?.missingParent).toBe(true);
  });
});
