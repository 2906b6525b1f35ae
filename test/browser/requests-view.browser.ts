// Issue #19: the Requests view full-window in the built app — Shift+R, a sort, a filter, a row that
// moves the Replay cursor, and the view kept in the link; screenshots in light and dark.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ready } from './helpers.ts';

type Case = (ctx: { page: Page; baseUrl: string; shot: (name: string) => Promise<unknown> }) => Promise<void>;

const sliderSeq = async (page: Page) => Number(await page.getByRole('slider', { name: 'Replay cursor' }).getAttribute('aria-valuenow'));

/** Polls until `check` holds (the page's CSP forbids waitForFunction's eval). */
async function until(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`timed out waiting for ${what}`);
}
const hash = (page: Page) => page.evaluate(() => location.hash);
const cells = (page: Page, column: string) => page.locator(`.requests-table tbody tr[data-call] td.col-${column}`).allInnerTexts();

export function requestsViewTests(_dir: string | null): Record<string, Case> {
  return {
    async 'issue 19: Shift+R opens the Requests view full-window; sort, filter and a row click move the cursor; the link keeps it'({ page, baseUrl, shot }) {
      await page.goto(baseUrl);
      await ready(page);
      await page.locator('body').click({ position: { x: 5, y: 5 } }).catch(() => {});
      await page.keyboard.press('Shift+R');
      const region = page.getByRole('region', { name: 'Requests' });
      await page.locator('.requests-full .requests-panel.full').waitFor({ timeout: 10000 });
      assert.equal(await page.locator('.workspace').count(), 0, 'the three columns give way to the view');
      assert.equal(await region.getByRole('button', { name: 'Exit full window' }).getAttribute('aria-pressed'), 'true');
      await until('rq=1 in the link', async () => /[#&]rq=1(&|$)/.test(await hash(page)));
      const count = region.getByLabel('Matching calls');
      const counted = async () => /^([\d,]+) of ([\d,]+) calls$/.exec(await count.innerText())!.slice(1).map((n) => Number(n.replace(/,/g, '')));
      const [, total] = await counted();
      assert.ok(total > 10, 'the demo has many calls');

      // A break reason to filter by: sorted by break reason, descending, the calls that broke come first.
      const sortBy = async (name: string) => { const h = region.getByRole('columnheader', { name }); await h.getByRole('button').click(); return h; };
      await sortBy('break reason');
      await sortBy('break reason');
      const reason = (await cells(page, 'break'))[0].split(',')[0].trim();
      assert.ok(reason, 'some call broke its prefix');

      // Sort by msgs, descending: the second click on its header (a click on another header replaces the sort).
      await sortBy('msgs');
      const msgs = await sortBy('msgs');
      assert.equal(await msgs.getAttribute('aria-sort'), 'descending');
      assert.equal(await region.getByRole('columnheader', { name: 'break reason' }).getAttribute('aria-sort'), 'none');
      const counts = (await cells(page, 'messageCount')).map(Number);
      assert.deepEqual(counts, [...counts].sort((a, b) => b - a), 'rows in descending message count');
      await until('rs=-messageCount in the link', async () => (await hash(page)).includes('rs=-messageCount'));

      // The filter narrows the rows to the calls that match, and counts them.
      await region.getByRole('searchbox', { name: 'Filter calls' }).fill(reason);
      await until('the filter to narrow the rows', async () => { const [m, n] = await counted(); return m > 0 && m < n; });
      const [matched] = await counted();
      const rows = page.locator('.requests-table tbody tr[data-call]');
      assert.ok(await rows.count() > 0 && await rows.count() <= matched, 'the rows shown are matches');
      for (const row of await rows.all()) {
        const text = (await row.innerText()).toLowerCase();
        assert.ok(text.includes(reason.toLowerCase()), `row "${text}" matches "${reason}"`);
      }
      const shown = (await cells(page, 'messageCount')).map(Number);
      assert.deepEqual(shown, [...shown].sort((a, b) => b - a), 'still sorted');
      await until('rf in the link', async () => (await hash(page)).includes('rf='));

      // A row click: the Replay cursor goes to that call's cut, its detail shows beside the table.
      const row = rows.nth(Math.min(1, (await rows.count()) - 1));
      const call = Number(await row.getAttribute('data-call'));
      const cut = Number(await row.locator('td.col-cut').innerText());
      await row.click();
      await until(`the Replay cursor at seq ${cut}`, async () => (await sliderSeq(page)) === cut);
      // The panel reads a deferred cursor (it catches up a frame after the slider): wait for it, not the slider.
      await until('the clicked row selected', async () => (await row.getAttribute('aria-selected')) === 'true');
      const detail = page.locator('.requests-panel.full .request-detail');
      await detail.getByText(`Call ${call + 1}`, { exact: true }).waitFor();
      const [tableBox, detailBox] = [await page.locator('.requests-panel.full .requests-table').boundingBox(), await detail.boundingBox()];
      assert.ok(tableBox && detailBox && detailBox.x >= tableBox.x + tableBox.width - 2, 'the selected call sits beside the table');
      await detail.locator('.request-messages .msg').first().waitFor();
      await shot('requests-full');
      await page.getByLabel('Theme').selectOption('dark');
      await shot('requests-full-dark');

      // The link restores the view on reload.
      await until('the link settled', async () => /[#&]rq=1(&|$)/.test(await hash(page)) && (await hash(page)).includes('rs=-messageCount'));
      await page.reload();
      await page.locator('.requests-full .requests-panel.full').waitFor({ timeout: 30000 });
      await page.locator('.requests-table tbody tr[data-call]').first().waitFor({ timeout: 30000 });
      assert.equal(await page.getByRole('region', { name: 'Requests' }).getByRole('columnheader', { name: 'msgs' }).getAttribute('aria-sort'), 'descending');
      assert.equal(await page.getByRole('searchbox', { name: 'Filter calls' }).inputValue(), reason);

      // Esc (outside the filter box) leaves the view: the three columns are back.
      await page.locator('.requests-table tbody tr[data-call]').first().click();
      await page.keyboard.press('Escape');
      await ready(page);
      assert.equal(await page.locator('.requests-full').count(), 0);
      await until('rq gone from the link', async () => !/[#&]rq=1/.test(await hash(page)));
    },
  };
}
