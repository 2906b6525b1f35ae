// Issue #17 in the built app: a message read without expanding anything, links
// that know their log, request rows that move the cursor, "↑ parent" at the
// fork, keys that stay with a focused separator; and every side panel in the
// light and the dark theme (screenshots in test-results/, looked at by hand).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { openFile, ready } from './helpers.ts';

type Case = (ctx: { page: Page; context: BrowserContext; baseUrl: string; shot: (name: string) => Promise<unknown> }) => Promise<void>;

const sliderSeq = async (page: Page) => Number(await page.getByRole('slider', { name: 'Replay cursor' }).getAttribute('aria-valuenow'));

/** Waits until the Replay cursor slider stands on `seq` (polled: the page's CSP forbids waitForFunction's eval). */
async function sliderAt(page: Page, seq: number): Promise<void> {
  for (const until = Date.now() + 10_000; Date.now() < until;) {
    if ((await sliderSeq(page)) === seq) return;
    await page.waitForTimeout(20);
  }
  assert.equal(await sliderSeq(page), seq, 'the Replay cursor slider');
}

const demo = fs.readFileSync('public/demo/demo-session.jsonl', 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const childHeader = JSON.parse(fs.readFileSync('public/demo/demo-session-subagent.jsonl', 'utf8').split('\n')[0]);

export const issue17Tests: Record<string, Case> = {
  async 'issue 17: a tool result reads as text in Event detail, nothing expanded'({ page, baseUrl, shot }) {
    await page.goto(baseUrl);
    await ready(page);
    const result = demo.find((r) => r.type === 'tool/result' && r.data.message.content[0].content[0].text.includes('\n'));
    const text: string = result.data.message.content[0].content[0].text;
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('g');
    await page.getByRole('textbox', { name: 'Seq' }).fill(String(result.seq));
    await page.keyboard.press('Enter');
    await sliderAt(page, result.seq);
    const detail = page.getByRole('region', { name: 'Event detail' });
    const pre = detail.locator('.msg-result > .msg-text-block pre.msg-text').first();
    await pre.waitFor();
    assert.equal(await pre.evaluate((e) => e.textContent), text, 'the whole result, line breaks and all');
    assert.match(await detail.locator('.msg-result-head').innerText(), /result of \w+/);
    await shot('issue17-tool-result');
  },

  async 'issue 17: a link made on log A, opened on a fresh page, names A and applies once A is opened'({ page, context, baseUrl }) {
    const a = generateLog({ dialect: 'v0', seed: 31, turns: 3 }).text;
    await page.goto(baseUrl);
    await ready(page);
    await openFile(page, 'log-A.jsonl', Buffer.from(a));
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('g');
    await page.getByRole('textbox', { name: 'Seq' }).fill('17');
    await page.keyboard.press('Enter');
    await page.getByRole('tab', { name: 'Requests' }).click();
    for (let t = 0; t < 100 && !(page.url().includes('log=log-A.jsonl') && page.url().includes('c=17') && page.url().includes('tab=requests')); t++) await page.waitForTimeout(50);
    const link = page.url();
    assert.match(link, /[#&]h=[0-9a-z]+-[0-9a-z]+/);
    const fresh = await context.newPage();
    await fresh.goto(link);
    await ready(fresh);
    const notice = fresh.getByRole('alert', { name: 'Link for another log' });
    await notice.waitFor();
    assert.match(await notice.innerText(), /made for the log log-A\.jsonl/);
    assert.match(await fresh.locator('.session-name').innerText(), /demo-session\.jsonl/);
    // The demo keeps its own view meanwhile, and the address keeps the link.
    assert.equal(await fresh.getByRole('tab', { name: 'Requests' }).getAttribute('aria-selected'), 'false');
    assert.equal(fresh.url(), link);
    await fresh.getByLabel('Open the linked log').setInputFiles({ name: 'log-A.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(a) });
    await fresh.locator('.session-name', { hasText: 'log-A.jsonl' }).waitFor({ timeout: 20000 });
    await sliderAt(fresh, 17);
    await fresh.getByRole('tab', { name: 'Requests', selected: true }).waitFor();
    assert.equal(await notice.count(), 0);
    await fresh.close();
  },

  async 'issue 17: clicking a request row moves the Replay cursor to its cut'({ page, baseUrl }) {
    await page.goto(baseUrl);
    await ready(page);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Home');
    await sliderAt(page, 0);
    await page.getByRole('tab', { name: 'Requests' }).click();
    const row = page.locator('.requests-table tbody tr[aria-rowindex="6"]');
    await row.waitFor();
    const cut = Number(await row.locator('td').nth(1).innerText());
    await row.click();
    await sliderAt(page, cut);
    await page.locator('.request-detail').getByText('Call 5', { exact: true }).waitFor();
    assert.equal(await row.getAttribute('aria-selected'), 'true');
    // The call's messages read as text; the surface at its cut marks what it added.
    await page.locator('.request-messages .msg').first().waitFor();
    await page.getByRole('region', { name: 'Surface' }).getByText(/call 5 is cut here/).waitFor();
  },

  async 'issue 17: "↑ parent" opens the parent at the fork; the child\'s inherited events are marked'({ page, baseUrl, shot }) {
    await page.goto(baseUrl);
    await ready(page);
    await page.getByLabel('Session').selectOption({ label: '  demo-session-subagent.jsonl (subagent)' });
    await page.locator('.session-name', { hasText: 'demo-session-subagent.jsonl' }).waitFor({ timeout: 20000 });
    await page.keyboard.press('Home');
    await page.locator('.event-row.inherited').first().waitFor();
    await shot('issue17-child-inherited');
    await page.getByRole('button', { name: '↑ parent session' }).click();
    await page.locator('.session-name', { hasText: 'demo-session.jsonl ·' }).waitFor({ timeout: 20000 });
    await sliderAt(page, childHeader.seedLength - 1);
    // The parent's event at the fork links back to the child.
    await page.getByRole('tab', { name: 'Event' }).click();
    await page.getByRole('button', { name: /forked child session demo-session-subagent\.jsonl/ }).waitFor();
    await shot('issue17-parent-at-fork');
  },

  async 'issue 17: a focused panel separator takes → for itself; the cursor stays'({ page, baseUrl }) {
    await page.goto(baseUrl);
    await ready(page);
    await page.keyboard.press('Home');
    await sliderAt(page, 0);
    const separator = page.getByRole('separator', { name: 'Resize events and surface' });
    const before = Number(await separator.getAttribute('aria-valuenow'));
    await separator.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(300);
    assert.equal(await sliderSeq(page), 0, 'the cursor did not move');
    assert.equal(Number(await separator.getAttribute('aria-valuenow')), before + 4, 'the separator moved');
    // Esc in the search box leaves it: the next j is a command, not text.
    const search = page.getByRole('textbox', { name: 'Find events' });
    await search.click();
    await page.keyboard.press('Escape');
    await page.keyboard.press('j');
    await sliderAt(page, 1);
    assert.equal(await search.inputValue(), '');
    // A step with nowhere to go says so; go-to refuses a seq out of range.
    await page.keyboard.press('End');
    await page.keyboard.press('.');
    await page.getByRole('status', { name: 'Command status' }).getByText('no next replace').waitFor();
    // The buttons follow the deferred cursor (they render after the slider's frame): wait for it to settle.
    const nextReplace = page.getByRole('button', { name: 'Next replace' });
    for (const until = Date.now() + 3000; !(await nextReplace.isDisabled()) && Date.now() < until;) await page.waitForTimeout(20);
    assert.equal(await nextReplace.isDisabled(), true);
    await page.keyboard.press('g');
    await page.getByRole('textbox', { name: 'Seq' }).fill('99999');
    await page.keyboard.press('Enter');
    await page.getByText(/seq 99999 is out of range: this log has seqs 0–\d+/).waitFor();
  },

  async 'issue 17: every side panel in the light and the dark theme'({ page, baseUrl, shot }) {
    await page.goto(baseUrl);
    await ready(page);
    // At a change of the todo list: the Projections panel shows what changed and the call that saw it.
    const todo = demo.filter((r) => r.type === 'todo/write')[1];
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('g');
    await page.getByRole('textbox', { name: 'Seq' }).fill(String(todo.seq));
    await page.keyboard.press('Enter');
    await sliderAt(page, todo.seq);
    for (const theme of ['light', 'dark'] as const) {
      await page.getByLabel('Theme').selectOption(theme);
      for (const tab of ['Event', 'Messages', 'Requests', 'Prompt', 'Projections', 'Diagnostics']) {
        await page.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
        await page.waitForTimeout(500);
        await shot(`issue17-${theme}-${tab.toLowerCase()}`);
      }
      await page.getByRole('radio', { name: 'transcript' }).click();
      await page.waitForTimeout(300);
      await page.getByRole('button', { name: 'Export' }).click();
      await shot(`issue17-${theme}-transcript-export`);
      await page.getByRole('button', { name: 'Close' }).click();
      await page.getByRole('radio', { name: "model's view" }).click();
    }
  },
};
