// `dsh-devtools open --no-browser` on real DSH logs, read in place: the
// printed URL serves the app and the log byte for byte, a wrong token gets
// 403, and the command stops cleanly.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtApp, removeBuiltApp, cliBundle, startOpen, withWrongToken, type OpenRun } from '../helpers/open-cli.ts';
import { corpusDir, corpusLogs } from './corpus-dir.ts';

const logs = corpusLogs();
// The biggest log of the corpus: the most bytes through the server.
const biggest = [...logs].sort((a, b) => fs.statSync(b.file).size - fs.statSync(a.file).size)[0];
const runs: OpenRun[] = [];

beforeAll(async () => { await cliBundle(); builtApp(); }, 60_000);
afterAll(async () => {
  for (const run of runs) if (run.child.exitCode === null) await run.stop('SIGKILL');
  removeBuiltApp();
});

describe('open on the corpus', () => {
  it(`serves ${biggest.name} to the printed URL's token only, and stops on SIGTERM`, async () => {
    const run = await startOpen([biggest.file, '--no-browser', '--at', '3']);
    runs.push(run);
    const page = await fetch(run.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root"></div>');
    const log = await fetch(run.logUrl);
    expect(log.status).toBe(200);
    expect(Buffer.from(await log.arrayBuffer()).equals(fs.readFileSync(biggest.file))).toBe(true);
    expect((await fetch(withWrongToken(run.logUrl))).status).toBe(403);
    expect((await fetch(withWrongToken(run.url))).status).toBe(403);
    const stopped = await run.stop();
    expect(stopped.code).toBe(0);
    await expect(fetch(run.logUrl)).rejects.toThrow();
  }, 60_000);

  it('serves the corpus folder: every log in it, by name', async () => {
    const dir = path.join(corpusDir(), 'dsh');
    const run = await startOpen([dir, '--no-browser']);
    runs.push(run);
    await run.stderrWith(`open: serving ${logs.length} logs of ${dir} on 127.0.0.1:`);
    for (const entry of logs.slice(0, 10)) {
      const res = await fetch(new URL(`logs/${encodeURIComponent(path.basename(entry.file))}`, run.url));
      expect(res.status, entry.name).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(entry.file)), entry.name).toBe(true);
    }
    expect((await run.stop()).code).toBe(0);
  }, 60_000);
});
