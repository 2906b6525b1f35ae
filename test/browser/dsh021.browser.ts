// DSH 0.2.1-alpha.2-shaped logs in the built app (issue #16): a current log is
// never called refused; a log newer than the app says so, in its own words.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { openFile, ready } from './helpers.ts';

type Case = (ctx: { page: Page; baseUrl: string; shot: (name: string) => Promise<unknown> }) => Promise<void>;

const log = generateLog({ dialect: 'v4', dsh021: true, seed: 21, turns: 5 });
const lastCwd = log.events.filter((e) => e.type === 'working-directory/change').at(-1)!.data.cwd as string;

export const dsh021Tests: Record<string, Case> = {
  async '0.2.1-shaped log: no refusal badge, the workingDirectory unit, plugin records and source labels'({ page, baseUrl, shot }) {
    await page.goto(`${baseUrl}#tab=projections`);
    await ready(page);
    await openFile(page, 'dsh-0.2.1.jsonl', Buffer.from(log.text));
    assert.equal(await page.locator('.verdict-badge').count(), 0, 'a log DSH restores shows no verdict badge');
    const card = page.getByRole('article', { name: 'Projection workingDirectory' });
    await card.waitFor();
    // Waited for: the first answer may be for the cursor of the log that was open before.
    await card.getByText(lastCwd).waitFor();
    // Plugin records have their own family (filter chip and timeline lane).
    await page.locator('.chip.fam-plugin').waitFor();
    // Find a plugin record and a working-directory notice through the events search.
    const search = page.getByRole('textbox', { name: 'Find events' });
    await search.fill('plugin record');
    await search.press('Enter');
    await page.locator('[role=row][aria-current=step]', { hasText: 'plugin:translator/request' }).waitFor();
    await search.fill('[working directory]');
    await search.press('Enter');
    await page.locator('[role=row][aria-current=step]', { hasText: '[working directory] The working directory changed' }).waitFor();
    await page.getByRole('tab', { name: 'Diagnostics' }).click();
    const verdict = page.getByRole('status', { name: 'Verdict' });
    assert.match(await verdict.innerText(), /DSH would restore this log[\s\S]*needs DSH 0\.2\.1-alpha\.2 or later/);
    await shot('dsh021-ok');
  },

  async 'a log with a type newer than the app: "newer than this app", never "refused by DSH"'({ page, baseUrl, shot }) {
    await page.goto(`${baseUrl}#tab=diagnostics`);
    await ready(page);
    const lines = log.text.split('\n');
    const at = lines.findIndex((l) => l.includes('"type":"working-directory/change"'));
    lines[at] = lines[at].replace('"type":"working-directory/change"', '"type":"working-directory/pushd"');
    await openFile(page, 'dsh-newer.jsonl', Buffer.from(lines.join('\n')));
    const badge = page.locator('.verdict-badge');
    await badge.waitFor();
    assert.equal(await badge.innerText(), 'newer than this app');
    assert.match(await badge.getAttribute('title') ?? '', /working-directory\/pushd/);
    const verdict = page.getByRole('status', { name: 'Verdict' });
    const text = await verdict.innerText();
    assert.match(text, /This log is newer than this app/);
    assert.match(text, /partial from seq \d+/);
    assert.doesNotMatch(text, /refuse/);
    assert.ok(await page.getByRole('grid').locator('[role=row]').count() > 0, 'the events are still listed');
    await shot('dsh021-newer');
  },
};
