// Hostile sizes in the browser (issue #18): a decompression bomb opens with its
// readable part and a finding; a log over the memory budget is stopped with a
// message while the open log stays. The runner fails a case on any console error.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { zstdBomb } from '../../src/core/fuzz/bomb.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { openFile, ready } from './helpers.ts';

type Case = (ctx: { page: Page; baseUrl: string; shot: (name: string) => Promise<unknown> }) => Promise<void>;

export const limitsTests: Record<string, Case> = {
  async 'limits: the 24 KB zstd bomb (an 800 MB line that never ends) opens with its header, events and a finding'({ page, baseUrl, shot }) {
    await page.goto(`${baseUrl}#tab=diagnostics`);
    await ready(page);
    const { bytes, head } = zstdBomb(800_000_000);
    assert.ok(bytes.length < 26_000, `the bomb is ${bytes.length} bytes`);
    const header = JSON.parse(head.split('\n')[0]);
    await openFile(page, 'bomb.zst', Buffer.from(bytes));
    const name = page.locator('.session-name', { hasText: 'bomb.zst' });
    assert.match(await name.innerText(), /bomb\.zst · v4 · \d+ events/);
    assert.equal(await name.getAttribute('title'), header.id);
    const region = page.getByRole('region', { name: 'Diagnostics' });
    await region.waitFor();
    const line = head.split('\n').length;
    assert.match(await region.innerText(), new RegExp(`tail\\.torn[\\s\\S]*line ${line} \\(800000000 bytes from byte ${Buffer.byteLength(head)}\\) too long to read`));
    assert.match(await region.innerText(), /torn tail: 800000000 bytes dropped/);
    assert.ok(await page.getByRole('grid').locator('[role=row]').count() > 0, 'the events before the line are listed');
    await shot('limits-bomb');
  },

  async 'limits: a log over a low memory budget is stopped with the message, and the open log stays'({ page, baseUrl, shot }) {
    // ?memoryBudget=40 (MB): the demo fits, a 3.3 MB log of 63 k events does not.
    await page.goto(`${baseUrl}?memoryBudget=40#tab=diagnostics`);
    await ready(page);
    const before = await page.locator('.session-name').innerText();
    assert.match(before, /demo-session\.jsonl/);
    const big = generateLog({ dialect: 'v0', seed: 5, turns: 100 }).text;
    await page.getByLabel('Open log').setInputFiles({ name: 'big.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(big) });
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 60000 });
    const message = await alert.innerText();
    assert.match(message, /Could not open big\.jsonl: the log is too big for this tab: about 3 MB of text and [\d,]+ events would need about \d+ MB of memory, and the budget set for this page \(memoryBudget\) allows about 40 MB\./);
    assert.match(message, /Loading stopped after \d+ MB \([\d,]+ events\)\. The open log stays as it was\. To read this log, use the command line: npm run inspect -- <file>.*Open folder/);
    assert.equal(await page.locator('.session-name').innerText(), before);
    // The open log still answers: its rows and the cursor move.
    assert.ok(await page.getByRole('grid').locator('[role=row]').count() > 0);
    await page.locator('body').click({ position: { x: 5, y: 5 } }).catch(() => {});
    await page.keyboard.press('Home');
    await page.getByLabel('Cursor position').getByText(/^seq 0 /).waitFor({ timeout: 10000 });
    await shot('limits-over-budget');
  },
};
