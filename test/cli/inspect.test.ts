import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { inspect } from '../../src/core/inspect.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { zstdBomb } from '../../src/core/fuzz/bomb.ts';

const tsx = path.resolve('node_modules/.bin/tsx');
const cli = 'src/cli/main.ts';

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
    const out = JSON.parse(execFileSync(tsx, [cli, 'inspect', file, '--json'], { encoding: 'utf8' }));
    expect(out.format).toMatchObject({ version: 4, dialect: 'v4' });
    for (const key of ['format', 'header', 'eventCount', 'lastSeq', 'eventTypeCounts', 'tornTail', 'diagnostics', 'ok', 'surface', 'messages', 'transcript', 'synthetic']) expect(out).toHaveProperty(key);
    const missing = spawnSync(tsx, [cli, 'inspect', path.join(dir, 'nope.jsonl')], { encoding: 'utf8' });
    expect(missing.status).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
  }, 30_000);

  it('reads the issue-18 bomb (24 KB of zstd, then an 800 MB line that never ends): JSON with the header and the long line named, no stack trace', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-'));
    const file = path.join(dir, 'bomb.zst');
    const { bytes, head } = zstdBomb(800_000_000);
    expect(bytes.length).toBeLessThan(26_000);
    fs.writeFileSync(file, bytes);
    const run = spawnSync(tsx, [cli, 'inspect', file, '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.header).toMatchObject({ type: 'session', version: 4 });
    expect(out.eventCount).toBe(head.split('\n').length - 2);
    const line = head.split('\n').length;
    const torn = out.diagnostics.find((d: { code: string }) => d.code === 'tail.torn');
    expect(torn.message).toContain(`line ${line} (800000000 bytes from byte ${Buffer.byteLength(head)}) too long to read`);
    expect(out.tornTailDetail).toEqual({ bytes: 800_000_000, rows: 0 });
  }, 60_000);

  it('gives the same results streamed (--stream, for logs too big to hold as objects) as read whole', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-'));
    const file = path.join(dir, 'log.jsonl');
    fs.writeFileSync(file, generateLog({ dialect: 'v0', seed: 4, turns: 4, compactEvery: 2, packChunks: true }).text);
    const whole = execFileSync(tsx, [cli, 'inspect', file, '--json', '--at', '40'], { encoding: 'utf8' });
    const streamed = execFileSync(tsx, [cli, 'inspect', file, '--json', '--at', '40', '--stream'], { encoding: 'utf8' });
    expect(JSON.parse(streamed)).toEqual(JSON.parse(whole));
    expect(JSON.parse(whole).asOfSeq).toBe(40);
  }, 30_000);

  it('derives a call\'s messages only for the JSON document, and leaves them out with --brief-calls', () => {
    const text = generateLog({ dialect: 'v0', seed: 6, turns: 4 }).text;
    const result = inspect(readLogText(text));
    // The report holds no call's context: each is derived when read (a long session has tens of thousands of calls).
    const first = Object.getOwnPropertyDescriptor(result.requests[0], 'messages')!;
    expect(typeof first.get).toBe('function');
    expect(first.enumerable).toBe(true);
    const full = JSON.parse(JSON.stringify(result));
    expect(full.requests.every((r: { messages: unknown[]; messageCount: number }) => r.messages.length === r.messageCount)).toBe(true);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-'));
    const file = path.join(dir, 'log.jsonl');
    fs.writeFileSync(file, text);
    const brief = JSON.parse(execFileSync(tsx, [cli, 'inspect', file, '--json', '--brief-calls'], { encoding: 'utf8' }));
    expect(brief.requests.map((r: { messageCount: number }) => r.messageCount)).toEqual(full.requests.map((r: { messageCount: number }) => r.messageCount));
    expect(brief.requests.some((r: object) => 'messages' in r || 'hash' in r)).toBe(false);
    const strip = (r: Record<string, unknown>) => { const { messages: _m, hash: _h, ...rest } = r; return rest; };
    expect(brief.requests).toEqual(full.requests.map(strip));
    expect({ ...brief, requests: null }).toEqual({ ...full, requests: null });
    const usage = spawnSync(tsx, [cli, 'inspect', file, '--brief-calls'], { encoding: 'utf8' });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/--brief-calls shapes the JSON document/);
  }, 30_000);

  it('prints one line per error (exit 1, 2 for usage), and the stack only with --debug', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-'));
    const folder = spawnSync(tsx, [cli, 'inspect', dir], { encoding: 'utf8' });
    expect(folder.status).toBe(1);
    expect(folder.stderr.trim().split('\n')).toEqual([`inspect: ${dir} is a folder; give one log file`]);
    const debug = spawnSync(tsx, [cli, 'inspect', dir, '--debug'], { encoding: 'utf8' });
    expect(debug.status).toBe(1);
    const lines = debug.stderr.trim().split('\n');
    expect(lines[0]).toBe(folder.stderr.trim());
    expect(lines.slice(1).some((l) => /^\s+at /.test(l))).toBe(true);
    const usage = spawnSync(tsx, [cli, 'inspect', '--at', 'x'], { encoding: 'utf8' });
    expect(usage.status).toBe(2);
    expect(usage.stderr.trim().split('\n')).toHaveLength(1);
    // Other commands follow the same rules.
    const gen = spawnSync(tsx, [cli, 'gen-log', '--events', '10', '--out', path.join(dir, 'no', 'such', 'dir.jsonl')], { encoding: 'utf8' });
    expect(gen.status).toBe(1);
    expect(gen.stderr.trim().split('\n')).toHaveLength(1);
    expect(gen.stderr).toMatch(/^gen-log: .*ENOENT/);
    const genUsage = spawnSync(tsx, [cli, 'gen-log'], { encoding: 'utf8' });
    expect(genUsage.status).toBe(2);
    const conformance = spawnSync(tsx, ['scripts/conformance.ts', path.join(dir, 'none'), dir], { encoding: 'utf8' });
    expect(conformance.status).toBe(2);
    expect(conformance.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);
});
