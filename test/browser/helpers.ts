// Shared steps for browser cases: open a log through the file picker, read the panels.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

export async function ready(page: Page): Promise<void> {
  await page.getByRole('grid').locator('[role=row]').first().waitFor({ timeout: 30000 });
}

export async function openFile(page: Page, name: string, buffer: Buffer): Promise<void> {
  await page.getByLabel('Open log').setInputFiles({ name, mimeType: 'application/x-ndjson', buffer });
  await page.locator('.session-name', { hasText: name }).waitFor({ timeout: 60000 });
}

/** Moves the cursor with the go-to box (the `g` command). */
export async function gotoSeq(page: Page, seq: number): Promise<void> {
  await page.locator('body').click({ position: { x: 5, y: 5 } }).catch(() => {});
  await page.keyboard.press('g');
  await page.getByRole('textbox', { name: 'Seq' }).fill(String(seq));
  await page.keyboard.press('Enter');
  await page.getByLabel('Cursor position').getByText(new RegExp(`^seq ${seq} `)).waitFor({ timeout: 10000 });
}

/** Surface nodes the panel lists (ghosted shadowed nodes excluded). */
export async function surfaceNodeSeqs(page: Page): Promise<number[]> {
  const region = page.getByRole('region', { name: 'Surface' });
  await region.getByLabel('Generations').waitFor();
  return region.locator('[role=listitem].node:not(.ghost) .seq').evaluateAll((els) => els.map((e) => Number(e.textContent)));
}

/**
 * The surface as the panel shows it: the node count its header states, and the
 * nodes it lists (a long surface lists only the part in view, from the top).
 * Equal to `expected` when the count is its length and the list its beginning.
 */
export async function surfaceAsShown(page: Page, expected: readonly number[]): Promise<number[]> {
  const region = page.getByRole('region', { name: 'Surface' });
  const header = await region.getByLabel('Generations').innerText();
  const count = Number(/([\d,]+) nodes/.exec(header)?.[1].replaceAll(',', '') ?? -1);
  const listed = await surfaceNodeSeqs(page);
  // What the page shows, read as the whole list when it agrees with it (else as itself, for the failure message).
  return count === expected.length && listed.length > 0 && listed.every((s, i) => s === expected[i]) ? [...expected] : listed;
}

/**
 * The open log's projections were folded by the helper worker when the
 * machine has cores to spare (issue #15), by the load itself otherwise:
 * read from the Diagnostics panel's load line, which says which it was.
 */
export async function assertProjectedAsCoresAllow(page: Page): Promise<string> {
  await page.getByRole('tab', { name: /Diagnostics/ }).click();
  const line = await page.getByLabel('Load time').innerText({ timeout: 10000 });
  const cores = (await page.evaluate('navigator.hardwareConcurrency')) as number;
  const asked = new URL(page.url()).searchParams.get('helper');
  // The app's rule (src/worker/client.ts HELPER_MIN_CORES): the page and the load worker keep two cores busy; the link may force it.
  const helped = asked === '1' || (asked !== '0' && cores >= 4);
  const expected = helped ? 'projections folded on a second core' : 'projections folded by the load';
  if (!line.includes(expected)) throw new Error(`with ${cores} cores${asked ? ` and helper=${asked}` : ''} the load line should say "${expected}"; it says "${line}"`);
  // A helped load also says how long it waited for the helper after its own read (which thread set its time).
  if (helped !== /which the load waited \d+\.\d s for after its own read/.test(line)) throw new Error(`the load line should ${helped ? '' : 'not '}say how long the load waited for the helper; it says "${line}"`);
  return line;
}

/** Polls `what` every 50 ms until it holds, failing after 20 s with `label`. */
export async function waitFor(what: () => Promise<boolean>, label: string): Promise<void> {
  for (const until = Date.now() + 20_000; Date.now() < until;) {
    if (await what()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for ${label}`);
}
