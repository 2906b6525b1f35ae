import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { inspect } from '../../src/core/inspect.ts';
import { readLogText } from '../../src/core/log/reader.ts';

const tsx = path.resolve('node_modules/.bin/tsx');

describe('inspect (the CLI and the core share it)', () => {
  it('reports counts, surface, messages, projections, prompt and requests, and --at moves the state', () => {
    const text = generateLog({ dialect: 'v0', seed: 9, turns: 3, compactEvery: 2 }).text;
    const end = inspect(readLogText(text));
    expect(end.eventCount).toBe(Object.values(end.eventTypeCounts).reduce((a, b) => a + b, 0));
    expect(end.ok).toBe(true);
    expect(end.surface.replaceGeneration).toBeGreaterThan(0);
    expect(end.messages.length).toBeGreaterThan(0);
    expect(end.requests.length).toBe(end.eventTypeCounts['step/start']! + end.requests.filter((r) => r.attempt > 1).length);
    expect(Object.keys(end.projections)).toEqual(expect.arrayContaining(['todos', 'title', 'tokenUsage']));
    const early = inspect(readLogText(text), { at: 5 });
    expect(early.asOfSeq).toBe(5);
    expect(early.surface.nodes.every((s) => s <= 5)).toBe(true);
    expect(early.projections.title.observedSeq).toBe(5);
  });

  it('prints JSON from the command line, and a one-line error for a missing file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-'));
    const file = path.join(dir, 'log.jsonl');
    fs.writeFileSync(file, generateLog({ dialect: 'v4', seed: 1, turns: 1 }).text);
    const out = JSON.parse(execFileSync(tsx, ['scripts/inspect.ts', file, '--json'], { encoding: 'utf8' }));
    expect(out.format).toMatchObject({ version: 4, dialect: 'v4' });
    for (const key of ['format', 'header', 'eventCount', 'lastSeq', 'eventTypeCounts', 'tornTail', 'diagnostics', 'ok', 'surface', 'messages', 'transcript', 'synthetic']) expect(out).toHaveProperty(key);
    const missing = spawnSync(tsx, ['scripts/inspect.ts', path.join(dir, 'nope.jsonl')], { encoding: 'utf8' });
    expect(missing.status).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
  }, 30_000);
});
