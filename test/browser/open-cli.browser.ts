// `dsh-devtools open` (the built command, dist-cli/) in Chromium: the page on
// the token URL loads the named log by itself under the server's CSP, the
// cursor lands on --at SEQ, and nothing errs (the service worker included).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { ready } from './helpers.ts';

type Case = (ctx: { page: Page; allowOrigin: (origin: string) => void; shot: (name: string) => Promise<unknown> }) => Promise<void>;

/** Starts the built command; resolves with the URL it prints and a stop that returns its exit code. */
function startOpen(args: string[]): Promise<{ url: URL; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, ['dist-cli/dsh-devtools.mjs', 'open', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => { err += d; });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve({ url: new URL(out.split('\n')[0]), stop: () => { child.kill('SIGTERM'); return exited; } });
    });
    void exited.then((code) => reject(new Error(`open exited ${code}: ${err}`)));
  });
}

export const openCliTests: Record<string, Case> = {
  async 'dsh-devtools open: the page loads the log from its token URL and the cursor lands on --at SEQ'({ page, allowOrigin, shot }) {
    // A log with seq 40 missing: seq 60 is event index 59, so the cursor is placed by seq, not by index.
    const lines = generateLog({ dialect: 'v4', seed: 31, turns: 3 }).text.split('\n').filter((l) => !l.includes('"seq":40,'));
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-open-browser-')), 'from-terminal.jsonl');
    fs.writeFileSync(file, lines.join('\n'));
    const run = await startOpen([file, '--no-browser', '--at', '60']);
    try {
      allowOrigin(run.url.origin);
      const response = await page.goto(run.url.href);
      assert.equal(response?.headers()['content-security-policy']?.includes("script-src 'self'"), true);
      await ready(page);
      await page.locator('.session-name', { hasText: 'from-terminal.jsonl' }).waitFor({ timeout: 20000 });
      await page.getByLabel('Cursor position').getByText(/^seq 60 /).waitFor({ timeout: 10000 });
      // Once loaded, the link carries the event index again.
      await page.waitForFunction(() => location.hash.includes('c=59'));
      await shot('open-cli-at-seq');
    } finally {
      assert.equal(await run.stop(), 0);
    }
  },
};
