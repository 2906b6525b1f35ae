// Background jobs and session generations (docs/dsh-log-rules.md V6, L1.2) in the built app:
// the Jobs lane draws a bar per job and a click moves the cursor to its registration; a
// sessions folder holding several generations of one session lists it once, at its highest.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { openFile, ready, waitFor } from './helpers.ts';

type Case = (ctx: { page: Page; baseUrl: string; shot: (name: string) => Promise<unknown> }) => Promise<void>;

const log = generateLog({ dialect: 'v4', dsh021: true, jobs: true, seed: 58, turns: 6 });


export const jobsTests: Record<string, Case> = {
  async 'background jobs: the Jobs lane draws, a click on a bar moves the cursor to the job\'s registration, Event detail names the job'({ page, baseUrl, shot }) {
    await page.goto(`${baseUrl}#tab=event`);
    await ready(page);
    await openFile(page, 'dsh-jobs.jsonl', Buffer.from(log.text));
    const lane = page.getByRole('group', { name: 'Jobs' });
    await lane.waitFor();
    const jobs = log.events.filter((e) => e.type === 'job/registered');
    assert.equal(await lane.locator('button.job-bar').count(), jobs.length);
    assert.equal(await page.locator('.verdict-badge').count(), 0, 'a log with job records is one DSH restores');
    const failed = lane.locator('[data-job="job-test-3"]');
    assert.match(await failed.getAttribute('class') ?? '', /job-failed/);
    const box = await failed.boundingBox();
    assert.ok(box && box.width >= 4 && box.height > 0, 'the bar is drawn');
    await failed.click();
    const seq = jobs.find((e) => e.data.id === 'job-test-3')!.seq;
    await page.locator('.inspector-head', { hasText: `seq ${seq} · job/registered` }).waitFor();
    const detail = page.getByRole('group', { name: 'Job job-test-3' });
    await detail.waitFor();
    assert.match(await detail.innerText(), /failed at/);
    await shot('jobs-lane');
    // The settlement is one click away.
    const settledSeq = log.events.find((e) => e.type === 'job/settled' && e.data.id === 'job-test-3')!.seq;
    await detail.getByRole('button', { name: String(settledSeq) }).click();
    await page.locator('.inspector-head', { hasText: `seq ${settledSeq} · job/settled` }).waitFor();
  },

  async 'session generations: a folder with v0 and v4 of one session and a second session lists one row per session'({ page, baseUrl, shot }) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-generations-'));
    fs.mkdirSync(path.join(root, 'sess-a'));
    fs.mkdirSync(path.join(root, 'sess-b'));
    fs.writeFileSync(path.join(root, 'sess-a', 'session.jsonl'), generateLog({ dialect: 'v0', seed: 1, turns: 2 }).text);
    fs.writeFileSync(path.join(root, 'sess-a', 'session.v4.jsonl'), generateLog({ dialect: 'v4', seed: 1, turns: 3 }).text);
    fs.writeFileSync(path.join(root, 'sess-b', 'session.v4.jsonl'), generateLog({ dialect: 'v4', seed: 2, turns: 2, jobs: true }).text);
    await page.goto(baseUrl);
    await page.getByLabel('Open folder').setInputFiles(root);
    const view = page.getByRole('region', { name: 'Sessions folder' });
    await waitFor(async () => /^2 sessions \(and 1 older generation\)/.test(await view.getByRole('status').first().innerText()), 'the folder read');
    assert.equal(await view.locator('tbody tr[data-file]').count(), 2, 'one row per session');
    assert.equal(await view.locator('tr[data-file="sess-a/session.jsonl"]').count(), 0, 'the older generation is no row of its own');
    const row = view.locator('tr[data-file="sess-a/session.v4.jsonl"]');
    assert.match(await row.innerText(), /older: v0/);
    await shot('folder-generations');
    // The older generation opens from its link, in the main view.
    await row.getByRole('button', { name: 'v0' }).click();
    await page.locator('.session-name', { hasText: 'session.jsonl' }).waitFor({ timeout: 20_000 });
  },
};
