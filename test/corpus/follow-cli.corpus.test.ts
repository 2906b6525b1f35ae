import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusLogs } from './corpus-dir.ts';
import { followCli, until } from '../follow/cli-run.ts';

/** Corpus logs with a reference result: the biggest few, so the follow sees many batches. */
const logs = corpusLogs().filter((l) => l.expected?.final && typeof l.expected.lastSeq === 'number')
  .sort((a, b) => fs.statSync(b.file).size - fs.statSync(a.file).size).slice(0, 3);

describe('inspect --follow on real DSH logs written as it watches (issue #21)', () => {
  it.each(logs.map((l) => [l.name, l] as const))('%s ends with the reference lastSeq and final node count', async (_name, log) => {
    const bytes = fs.readFileSync(log.file);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-follow-')), 'live.jsonl');
    fs.writeFileSync(file, bytes.subarray(0, 300));
    const run = followCli(file);
    // Written in ragged pieces while the command follows (cuts mid-line and mid-character).
    for (let o = 300; o < bytes.length; o += 1777) {
      fs.appendFileSync(file, bytes.subarray(o, o + 1777));
      await new Promise((r) => setTimeout(r, 20));
    }
    await until(() => run.lines.at(-1)?.lastSeq === log.expected.lastSeq || run.lines.at(-1)?.events === log.expected.eventCount);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(run.lines.at(-1)).toMatchObject({ final: true, lastSeq: log.expected.lastSeq, nodes: log.expected.final.nodes.length });
  }, 60_000);
});
