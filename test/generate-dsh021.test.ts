import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeBase } from '../src/core/fuzz/base.ts';
import { MUTATORS } from '../src/core/fuzz/mutators.ts';
import { runCase } from '../src/core/fuzz/runner.ts';
import { generateLog } from '../src/core/generate/generate-log.ts';
import { Rng } from '../src/core/generate/prng.ts';
import { inspect } from '../src/core/inspect.ts';
import { readLogText } from '../src/core/log/reader.ts';
import { loadSession } from '../src/core/session/stream-load.ts';

/**
 * 0.2.1-alpha.2-shaped format-4 logs from the generator (`dsh021`), checked
 * against the facts of dsh-0.2 §4.3–4.4, not against the generator's code.
 */
const log = generateLog({ dialect: 'v4', dsh021: true, seed: 7, turns: 6 });
const typeSeqs = (type: string) => log.events.filter((e) => e.type === type).map((e) => e.seq);

describe('generator: 0.2.1-alpha.2 shape', () => {
  it('writes format 4 and loads with no error-severity finding, verdict ok', () => {
    expect(log.header).toMatchObject({ type: 'session', version: 4, isSeeded: false });
    const r = inspect(readLogText(log.text));
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.diagnostics.filter((d) => d.severity === 'warning')).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.verdict).toBe('ok');
    expect(r.verdictDetail.requires?.release).toBe('0.2.1-alpha.2');
  });

  it('records the directory near the first request (no header cwd), before the first system prompt, with no notice', () => {
    expect(log.header).not.toHaveProperty('cwd');
    const first = typeSeqs('working-directory/change')[0];
    expect(first).toBeLessThan(typeSeqs('system/message')[0]);
    expect(first).toBeGreaterThan(typeSeqs('step/start')[0]);
    expect(log.events[first].data.cwd).toMatch(/^\//);
    const noticesBefore = log.events.filter((e) => e.seq < typeSeqs('system/message')[0] && e.type === 'user/message' && e.data.source.kind === 'working-directory');
    expect(noticesBefore).toEqual([]);
  });

  it('each later change queues its notice through the inbox and the next turn shows it as a working-directory user message', () => {
    const changes = typeSeqs('working-directory/change').slice(1);
    expect(changes.length).toBeGreaterThanOrEqual(2);
    for (const seq of changes) {
      const splice = log.events[seq + 1];
      expect(splice.type).toBe('agent/inbox/spliced');
      const notice = splice.data.inserted[0];
      expect(notice.source).toEqual({ kind: 'working-directory' });
      expect(notice.content[0].text).toContain(JSON.stringify(log.events[seq].data.cwd));
      const shown = log.events.find((e) => e.seq > seq && e.type === 'user/message' && e.data.id === notice.id);
      expect(shown?.surfaceOp).toBe('append');
    }
  });

  it('writes plugin records as ignorable, log-only events, and catalog facts of versions 0 and 2', () => {
    const plugins = log.events.filter((e) => e.type.startsWith('plugin:'));
    expect(plugins.map((e) => e.type)).toEqual(['plugin:translator/request', 'plugin:translator/result']);
    for (const e of plugins) {
      expect(e.ignorable).toBe(true);
      expect(e.surfaceOp).toBeUndefined();
      expect(e.sourceEventSeqs).toBeUndefined();
    }
    expect(plugins[1].data.requestSeq).toBe(plugins[0].seq);
    const catalogs = log.events.filter((e) => e.type === 'subagent/catalog').map((e) => [e.data.version, e.data.mode]);
    expect(catalogs).toEqual([[0, 'continuable'], [2, 'external']]);
  });

  it('prompts carry the user source kind with rpcId', () => {
    const prompts = log.events.filter((e) => e.type === 'user/message' && e.data.source.kind === 'user');
    expect(prompts.length).toBe(6);
    for (const p of prompts) expect(p.data.source.rpcId).toMatch(/^rpc-\d+$/);
  });

  it('is deterministic, and leaves the plain v4 shape as it was', () => {
    expect(generateLog({ dialect: 'v4', dsh021: true, seed: 7, turns: 6 }).text).toBe(log.text);
    expect(generateLog({ dialect: 'v4', dsh021: false, seed: 7, turns: 6 }).text).toBe(generateLog({ dialect: 'v4', seed: 7, turns: 6 }).text);
    expect(generateLog({ dialect: 'v4', seed: 7, turns: 6 }).text).not.toContain('working-directory/change');
    // The option means nothing for format 0.
    expect(generateLog({ dialect: 'v0', dsh021: true, seed: 7, turns: 2 }).text).toBe(generateLog({ dialect: 'v0', seed: 7, turns: 2 }).text);
  });

  it('streams to the same fold as the eager read (the app\'s load path)', async () => {
    const streamed = await loadSession((async function* () { yield new TextEncoder().encode(log.text); })());
    expect(streamed.ok).toBe(true);
    expect(streamed.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
  });

  it('inspect --json reports the verdict beside ok and projections.workingDirectory', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh021-'));
    const file = path.join(dir, 'log.jsonl');
    fs.writeFileSync(file, log.text);
    const out = JSON.parse(execFileSync(path.resolve('node_modules/.bin/tsx'), ['src/cli/main.ts', 'inspect', file, '--json'], { encoding: 'utf8' }));
    expect(out.ok).toBe(true);
    expect(out.verdict).toBe('ok');
    const last = log.events.filter((e) => e.type === 'working-directory/change').at(-1)!;
    expect(out.projections.workingDirectory.value).toBe(last.data.cwd);
  }, 30_000);
});

describe('fuzz mutators for the 0.2.1 vocabulary and payload versions', () => {
  const bases = [
    makeBase('dsh021', generateLog({ dialect: 'v4', dsh021: true, seed: 3, turns: 2, stepsPerTurn: 2 }).text),
    makeBase('v4', generateLog({ dialect: 'v4', seed: 3, turns: 2, stepsPerTurn: 2 }).text),
    makeBase('v0', generateLog({ dialect: 'v0', seed: 3, turns: 2, stepsPerTurn: 2 }).text),
  ];

  it.each(['dsh021-vocabulary', 'payload-version', 'source-kind'])('%s: every case is explained or harmless, on 0.2.1, v4 and v0 bases', async (name) => {
    const failures: string[] = [];
    const details = new Set<string>();
    const rng = new Rng(1601);
    for (let i = 0; i < 60; i++) {
      const base = bases[i % bases.length];
      const m = MUTATORS[name].mutate(base, rng, { hugeBytes: [10, 20] });
      if (!m) continue;
      details.add(m.detail.split(':')[0]);
      const report = await runCase(base, m, rng, { checkpoints: 1, light: true });
      if (report.failures.length) failures.push(`${base.name} ${m.detail}: ${report.failures.join('; ')}`);
    }
    expect(failures).toEqual([]);
    expect(details.size).toBeGreaterThan(1);
  }, 60_000);

  it('the vocabulary mutator inserts valid records (no new finding) and invalid ones (a finding at their line)', () => {
    const rng = new Rng(99);
    const kinds = new Set<string>();
    for (let i = 0; i < 80; i++) {
      const m = MUTATORS['dsh021-vocabulary'].mutate(bases[0], rng, { hugeBytes: [10, 20] })!;
      kinds.add(`${m.detail.split(':')[0]} → ${m.fault.kind}`);
    }
    expect([...kinds].sort()).toEqual([
      'catalog → none', 'catalog-invalid → line', 'catalog-newer → line', 'cwd → none', 'cwd-relative → line', 'plugin-record → none', 'plugin-required → line',
    ]);
  });
});
