// A zstd log as DSH writes it by default (a compressed frame per append batch) opens in the page as
// its plaintext does: the same events, the same surface at the end, the same event read back from the
// file through its frames when it is selected.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { decompress } from 'fzstd';
import type { Page } from 'playwright-core';
import { openFile, ready } from './helpers.ts';

type Case = (ctx: { page: Page; baseUrl: string; shot: (name: string) => Promise<unknown> }) => Promise<void>;

/** What the page shows of the open log: its line in the header, the 12th event's detail, the surface at the end. */
async function shown(page: Page, name: string): Promise<{ session: string; detail: string; surface: string }> {
  const session = (await page.locator('.session-name', { hasText: name }).innerText()).replace(name, '');
  const row = page.getByRole('grid').locator('[role=row]').nth(12);
  const seq = (await row.locator('.seq').innerText()).trim();
  await row.click();
  const details = page.getByRole('region', { name: 'Details' });
  await details.getByText(new RegExp(`^seq ${seq} ·`)).waitFor({ timeout: 10_000 });
  await details.getByText(/line \d+/).first().waitFor({ timeout: 10_000 });
  const detail = await details.innerText();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('End');
  // The surface panel follows the cursor a frame later: read it once it says it is at the last seq.
  const position = page.getByLabel('Cursor position');
  await page.locator('.cursor-readout', { hasText: /· (\d+)\/\1\b/ }).waitFor();
  const last = /^seq (\d+) /.exec(await position.innerText())![1];
  const surface = page.getByRole('region', { name: 'Surface' });
  await surface.locator('.cursor-change', { hasText: `at seq ${last}:` }).waitFor({ timeout: 10_000 });
  return { session, detail, surface: await surface.getByLabel('Generations').innerText() };
}

export const zstdTests: Record<string, Case> = {
  async 'zstd: a log compressed as DSH writes it (a frame per batch) opens as its plaintext does'({ page, baseUrl, shot }) {
    const zst = fs.readFileSync('test/fixtures/batches.jsonl.zst');
    const plain = Buffer.from(decompress(new Uint8Array(zst)));
    await page.goto(baseUrl);
    await ready(page);
    await openFile(page, 'batches.jsonl', plain);
    const fromPlain = await shown(page, 'batches.jsonl');
    await openFile(page, 'batches.jsonl.zst', zst);
    const fromZstd = await shown(page, 'batches.jsonl.zst');
    assert.match(fromPlain.session, /\d+ events/);
    assert.match(fromPlain.detail, /line \d+/);
    assert.deepEqual(fromZstd, fromPlain);
    await shot('zstd-batches');
  },
};
