import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { inspect } from '../../src/core/inspect.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { followCli, until } from '../follow/cli-run.ts';

const tsx = path.resolve('node_modules/.bin/tsx');
const cli = 'src/cli/main.ts';

describe('inspect --follow --ndjson (issue #21)', () => {
  it('follows a file another process appends to and ends, on SIGINT, with the reference lastSeq and node count', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-follow-'));
    const file = path.join(dir, 'live.jsonl');
    const text = generateLog({ dialect: 'v4', seed: 6, turns: 4, openLastTurn: true }).text;
    const reference = inspect(readLogText(text));
    const first = text.indexOf('\n', text.length >> 2) + 1;
    fs.writeFileSync(file, text.slice(0, first));
    const run = followCli(file);
    await until(() => run.lines.length > 0);
    // Another process writes the rest, in pieces cut anywhere.
    const writer = spawn(process.execPath, ['-e', `
      const fs = require('fs'); const rest = Buffer.from(process.argv[2], 'base64'); let o = 0;
      const t = setInterval(() => { const n = 1 + Math.floor(Math.random() * 3000); fs.appendFileSync(process.argv[1], rest.subarray(o, o + n)); o += n; if (o >= rest.length) clearInterval(t); }, 15);
    `, file, Buffer.from(text.slice(first)).toString('base64')]);
    await new Promise((r) => writer.on('exit', r));
    await until(() => run.lines.at(-1)?.lastSeq === reference.lastSeq);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    const final = run.lines.at(-1);
    expect(final).toMatchObject({ final: true, events: reference.eventCount, lastSeq: reference.lastSeq, nodes: reference.surface.nodes.length, ok: reference.ok });
    // Every batch line has the five fields, events only grow, and seqs follow them.
    const batches = run.lines.slice(0, -1);
    expect(batches.length).toBeGreaterThan(1);
    for (const line of batches) expect(Object.keys(line).sort()).toEqual(['events', 'findings', 'lastSeq', 'nodes', 'pending']);
    for (let i = 1; i < batches.length; i++) expect(batches[i].events).toBeGreaterThan(batches[i - 1].events);
    expect(run.stderr()).toBe('');
  }, 60_000);

  it('says so and reads again from the start when the file shrinks; SIGTERM ends it cleanly', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-follow-'));
    const file = path.join(dir, 'live.jsonl');
    const a = generateLog({ dialect: 'v4', seed: 1, turns: 3 }).text;
    const b = generateLog({ dialect: 'v0', seed: 2, turns: 1 }).text;
    fs.writeFileSync(file, a);
    const run = followCli(file);
    await until(() => run.lines.length > 0);
    fs.writeFileSync(file, b);
    const expected = inspect(readLogText(b));
    await until(() => run.lines.some((l) => l.reopened) && run.lines.at(-1)?.lastSeq === expected.lastSeq);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.lines.find((l) => l.reopened)).toMatchObject({ reopened: 'shrunk' });
    expect(run.lines.at(-1)).toMatchObject({ final: true, lastSeq: expected.lastSeq, events: expected.eventCount });
  }, 60_000);

  it('asks for --ndjson with --follow (usage, exit 2)', () => {
    const usage = spawnSync(tsx, [cli, 'inspect', 'package.json', '--follow'], { encoding: 'utf8' });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('--ndjson');
  }, 30_000);
});
