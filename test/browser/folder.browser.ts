// Issue #23 in the built app: a folder of corpus logs (through the input's
// directory mode) fills the sessions table, subagents nest under their parent
// (an orphan says its parent is missing, a non-log file says it is not a log),
// and a search across sessions finds a word in one session and opens it at
// the right seq. Screenshots in light and dark theme go to test-results/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { DEFAULT_PRICES, sessionCost } from '../../src/core/charts/prices.ts';
import { summarizeLog } from '../../src/core/folder/summary.ts';
import { waitFor } from './helpers.ts';

type Case = (ctx: { page: Page; context: BrowserContext; baseUrl: string; shot: (name: string) => Promise<unknown> }) => Promise<void>;

const LOGS = ['acp-subagent-multi.jsonl', 'acp-subagent-multi.1.jsonl', 'acp-subagent-multi.2.jsonl', 'acp-subagent-mixed.jsonl', 'acp-subagent-mixed.1.jsonl', 'acp-subagent-mixed.2.jsonl', 'acp-cancel.jsonl', 'fixture-record-rec-pin.1.jsonl'];

/** A sessions folder in a temporary directory: corpus logs copied in (read in place from the corpus, never into the repo), in sub-folders, and a file that is not a log. */
function makeFolder(corpusDir: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-folder-browser-'));
  const root = path.join(dir, 'sessions');
  for (const f of LOGS) {
    const sub = path.join(root, f.startsWith('acp-subagent') ? f.split('.')[0] : 'other');
    fs.mkdirSync(sub, { recursive: true });
    fs.copyFileSync(path.join(corpusDir, f), path.join(sub, f));
  }
  fs.writeFileSync(path.join(root, 'README.txt'), 'my sessions\n');
  return root;
}

const rowOf = (page: Page, file: string) => page.locator(`tr[data-file="${file}"]`);


export const folderTests: Record<string, Case> = {
  async 'issue 23: Cancel stops reading a folder; what was read stays, the rest is marked unread'({ page, baseUrl }) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-folder-cancel-'));
    // One big log first in path order keeps the pool busy long enough to cancel.
    fs.writeFileSync(path.join(dir, 'a-big.jsonl'), generateLog({ dialect: 'v0', seed: 2, turns: 400, stepsPerTurn: 5 }).text);
    for (let i = 0; i < 6; i++) fs.writeFileSync(path.join(dir, `b-${i}.jsonl`), generateLog({ dialect: 'v4', seed: 60 + i, turns: 2 }).text);
    fs.writeFileSync(path.join(dir, 'empty.jsonl'), '');
    await page.goto(baseUrl);
    await page.getByLabel('Open folder').setInputFiles(dir);
    const view = page.getByRole('region', { name: 'Sessions folder' });
    await view.getByRole('button', { name: 'Cancel' }).click();
    await waitFor(async () => /cancelled after \d+/.test(await view.getByRole('status').first().innerText()), 'the cancelled status');
    assert.equal(await view.getByRole('button', { name: 'Cancel' }).count(), 0);
    assert.match(await rowOf(page, 'a-big.jsonl').innerText(), /not read/, 'the big log was not finished');
    // Opening the folder again reads it all.
    await page.getByLabel('Open folder').setInputFiles(dir);
    await waitFor(async () => /^7 sessions, 1 other files$/.test(await view.getByRole('status').first().innerText()), 'the whole folder');
  },
};

export function folderCorpusTests(corpusDir: string): Record<string, Case> {
  return {
    async 'issue 23: a folder of corpus logs fills the table, subagents nest, a cross-session search opens the session at the seq'({ page, baseUrl, shot }) {
      const root = makeFolder(corpusDir);
      await page.goto(baseUrl);
      await page.getByLabel('Open folder').setInputFiles(root);
      const view = page.getByRole('region', { name: 'Sessions folder' });
      await view.waitFor();
      await waitFor(async () => /9 sessions?|8 sessions, 1 other/.test(await view.getByRole('status').first().innerText()), 'the table to fill');
      assert.match(await view.getByRole('status').first().innerText(), /^8 sessions, 1 other files/);
      // Children right after their parent, one level deeper, in creation order; the fork marked.
      const order = await page.locator('tr[data-file]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-file')));
      const multi = order.indexOf('acp-subagent-multi/acp-subagent-multi.jsonl');
      assert.deepEqual(order.slice(multi, multi + 3), ['acp-subagent-multi/acp-subagent-multi.jsonl', 'acp-subagent-multi/acp-subagent-multi.1.jsonl', 'acp-subagent-multi/acp-subagent-multi.2.jsonl']);
      assert.equal(await rowOf(page, 'acp-subagent-multi/acp-subagent-multi.1.jsonl').locator('.session-cell').getAttribute('style'), 'padding-left: 16px;');
      assert.equal(await rowOf(page, 'acp-subagent-mixed/acp-subagent-mixed.2.jsonl').getByText('fork', { exact: true }).count(), 1);
      assert.equal(await rowOf(page, 'other/fixture-record-rec-pin.1.jsonl').getByText('parent missing').count(), 1);
      assert.match(await rowOf(page, 'README.txt').innerText(), /not a log/);
      // Real numbers from the summaries: the parent's three model calls, and its cost from the shipped price table.
      const file = path.join(corpusDir, 'acp-subagent-multi.jsonl');
      const summary = await summarizeLog(() => fs.createReadStream(file) as AsyncIterable<Uint8Array>, { file, size: fs.statSync(file).size });
      const cost = sessionCost(summary.modelUse, DEFAULT_PRICES);
      assert.ok(cost !== null && cost > 0, 'the corpus session uses a priced model');
      const shown = `$${cost < 0.01 ? cost.toFixed(4) : cost.toFixed(2)}`;
      const row = await rowOf(page, 'acp-subagent-multi/acp-subagent-multi.jsonl').innerText();
      assert.match(row, /\b212\b[\s\S]*\b3\b/);
      assert.ok(row.includes(shown), `the cost column shows ${shown}: ${row}`);
      await shot('issue23-folder-light');
      // The filter keeps matching rows (and the parents of matching children).
      await page.getByRole('textbox', { name: 'Filter sessions' }).fill('cancel');
      assert.deepEqual(await page.locator('tr[data-file]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-file'))), ['other/acp-cancel.jsonl']);
      await page.getByRole('textbox', { name: 'Filter sessions' }).fill('');
      // Sorting by events puts the biggest log first.
      const eventsHeader = view.locator('th', { has: page.getByRole('button', { name: /^Events/ }) });
      for (let k = 0; k < 3 && (await eventsHeader.getAttribute('aria-sort')) !== 'descending'; k++) await eventsHeader.getByRole('button').click();
      assert.equal(await eventsHeader.getAttribute('aria-sort'), 'descending');
      const top = await page.locator('tr[data-file]').first().getAttribute('data-file');
      assert.equal(top, 'acp-subagent-mixed/acp-subagent-mixed.jsonl', 'the log with the most events, sorted descending');
      // Search across sessions: a word only one session has.
      await page.getByRole('textbox', { name: 'Search all sessions' }).fill('mid-stream');
      await page.keyboard.press('Enter');
      const results = page.getByLabel('Search results');
      await results.waitFor();
      await waitFor(async () => /matches in/.test(await page.locator('.folder-search [role=status]').innerText()), 'the search to finish');
      const groups = await results.locator('.search-group-title strong').allInnerTexts();
      assert.deepEqual(groups, ['other/acp-cancel.jsonl']);
      // The inbox record that carried the prompt, then the user message itself.
      assert.deepEqual((await results.locator('.search-hit .mono').allInnerTexts()).slice(0, 2), ['seq 0', 'seq 4']);
      const hit = results.locator('.search-hit', { hasText: 'user/message' }).first();
      assert.match(await hit.innerText(), /^seq 4 user\/message/);
      await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
      await shot('issue23-folder-dark');
      await hit.click();
      // The session opens in the main view at that event, and the table is one click away.
      await page.locator('.session-name', { hasText: 'acp-cancel.jsonl' }).waitFor({ timeout: 20_000 });
      await waitFor(async () => Number(await page.getByRole('slider', { name: 'Replay cursor' }).getAttribute('aria-valuenow')) === 4, 'the cursor on seq 4');
      await shot('issue23-opened-at-hit');
      await page.getByRole('button', { name: 'Sessions' }).click();
      await view.waitFor();
      // Pick two and compare them.
      await page.getByLabel('Pick acp-subagent-multi/acp-subagent-multi.1.jsonl').check();
      await page.getByLabel('Pick acp-subagent-multi/acp-subagent-multi.2.jsonl').check();
      await view.getByRole('button', { name: 'Compare picked (2/2)' }).click();
      await page.getByRole('button', { name: 'Exit compare' }).waitFor({ timeout: 20_000 });
      await page.getByRole('region', { name: 'Compare', exact: true }).waitFor({ timeout: 30_000 });
      await page.getByLabel('Comparison result').waitFor({ timeout: 10_000 });
      await shot('issue23-compare');
    },
  };
}
