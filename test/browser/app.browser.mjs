// Browser test cases: each gets a fresh page; the runner fails a case on any
// console error or request to another origin.
import assert from 'node:assert/strict';
import fs from 'node:fs';

export const browserTests = {
  async 'the demo log loads from a sub-path under the CSP'({ page, baseUrl, shot }) {
    await page.goto(baseUrl);
    await page.getByRole('region', { name: 'Summary' }).waitFor({ timeout: 15000 });
    const text = await page.getByRole('region', { name: 'Summary' }).innerText();
    assert.match(text, /events/);
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    assert.match(csp, /script-src 'self'/);
    await shot('demo-loaded');
  },

  async 'a dropped-in log file is read and summarized'({ page, baseUrl }) {
    await page.goto(baseUrl);
    const log = fs.readFileSync('public/demo/demo-session-v4.jsonl');
    await page.getByLabel('Open log').setInputFiles({ name: 'mine.jsonl', mimeType: 'application/x-ndjson', buffer: log });
    await page.getByRole('heading', { name: 'mine.jsonl' }).waitFor({ timeout: 15000 });
  },
};
