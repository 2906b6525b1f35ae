// Broken logs in the browser: the page shows the findings, keeps what is readable,
// and logs no console error (the runner fails a case on any).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { openFile, ready } from './helpers.ts';

type Case = (ctx: { page: Page; baseUrl: string; shot: (name: string) => Promise<unknown> }) => Promise<void>;

const demo = () => fs.readFileSync('public/demo/demo-session.jsonl', 'utf8');

const MUTATIONS: [string, (text: string) => string, RegExp][] = [
  ['truncated mid-line', (t) => t.slice(0, Math.floor(t.length * 0.6)), /torn tail/i],
  ['a broken JSON line before a later turn/end', (t) => { const l = t.split('\n'); l.splice(40, 0, '{"type": "turn/start", "seq": '); return l.join('\n'); }, /row\.unparsable/],
  ['an unknown required event type', (t) => { const l = t.split('\n'); const row = JSON.parse(l[30]); l[30] = JSON.stringify({ ...row, type: 'future/feature' }); return l.join('\n'); }, /type\.unknown-required/],
  ['a replace citing a missing node', (t) => t.replace(/"surfaceOp":\{"op":"replace","start":(\d+)/, '"surfaceOp":{"op":"replace","start":999999'), /surface\.endpoint/],
];

export const robustnessTests: Record<string, Case> = Object.fromEntries(MUTATIONS.map(([what, mutate, expected]) => [
  `robustness: ${what} loads with a diagnostic and no console error`,
  async ({ page, baseUrl }: Parameters<Case>[0]) => {
    await page.goto(`${baseUrl}#tab=diagnostics`);
    await ready(page);
    const name = `mutated-${what.replace(/\W+/g, '-')}.jsonl`;
    await openFile(page, name, Buffer.from(mutate(demo())));
    const region = page.getByRole('region', { name: 'Diagnostics' });
    await region.waitFor();
    assert.match(await region.innerText(), expected);
    const rows = await page.getByRole('grid').locator('[role=row]').count();
    assert.ok(rows > 0, 'the readable events are still listed');
  },
]));

/**
 * A plain log's lines are read back from the dropped file (issue #15), so a
 * file changed on disk after it was opened can no longer give them: the page
 * says so, names the file and what to do, and keeps answering.
 */
robustnessTests['robustness: a dropped file changed on disk after it was opened: the page says so'] = async ({ page, baseUrl }) => {
  const file = path.join(os.tmpdir(), `dsh-changed-${process.pid}.jsonl`);
  // Bigger than the lines the worker keeps at hand after the load (2 MiB of blocks, a share of the log parsed).
  fs.writeFileSync(file, generateLog({ dialect: 'v4', seed: 31, turns: 220 }).text);
  try {
    await page.goto(baseUrl);
    await ready(page);
    await page.getByLabel('Open log').setInputFiles(file);
    await page.locator('.session-name', { hasText: path.basename(file) }).waitFor({ timeout: 60_000 });
    await page.getByRole('region', { name: 'Surface' }).getByLabel('Generations').waitFor();
    fs.truncateSync(file, 1000);
    // Lines not read since the load: the start of the log and its middle.
    await page.locator('body').click({ position: { x: 5, y: 5 } }).catch(() => {});
    await page.keyboard.press('Home');
    const slider = (await page.getByRole('slider', { name: 'Replay cursor' }).boundingBox())!;
    await page.mouse.click(slider.x + slider.width * 0.4, slider.y + slider.height / 2);
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 10_000 });
    assert.match(await alert.innerText(), new RegExp(`${path.basename(file)}: the file changed on disk after it was opened.*open it again`));
    // The page still answers: the events list and its rows are there.
    assert.ok(await page.getByRole('grid').locator('[role=row]').count() > 0);
  } finally {
    fs.rmSync(file, { force: true });
  }
};
