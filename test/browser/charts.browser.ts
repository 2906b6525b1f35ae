// Issue #19's charts in the built app, on a real log with a compaction: both
// figures are there with their names and text, the estimate at the cursor is
// the core's at three cursors, and a click on a bar moves the cursor to that
// call's cut. (No console error or CSP violation: the runner checks every case.)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { Engine } from '../../src/worker/engine.ts';
import { gotoSeq, openFile, ready } from './helpers.ts';

type Case = (ctx: { page: Page; baseUrl: string; shot: (name: string) => Promise<unknown> }) => Promise<void>;

const slider = (page: Page) => page.getByRole('slider', { name: 'Replay cursor' });

export function chartsCorpusTests(dir: string): Record<string, Case> {
  return {
    async 'charts: context usage and tokens per call on a real log follow the cursor, match the core and seek on click'({ page, baseUrl, shot }) {
      const name = 'headless-compaction-recovery.jsonl';
      const buffer = fs.readFileSync(path.join(dir, name));
      const engine = new Engine();
      const summary = await engine.load({ kind: 'text', text: buffer.toString('utf8'), name }, () => {});
      const data = engine.charts();
      assert.ok(data.calls.length >= 2 && data.marks.some((m) => m.compaction), 'the log has calls and a compaction');
      await page.goto(`${baseUrl}#tab=charts`);
      await ready(page);
      await openFile(page, name, buffer);
      const usage = page.getByRole('figure', { name: 'Context usage over time' });
      const calls = page.getByRole('figure', { name: 'Tokens per model call' });
      await usage.locator('canvas').first().waitFor({ timeout: 15_000 });
      await calls.locator('canvas').first().waitFor();
      assert.match(await usage.locator('figcaption').innerText(), /1 compaction/);
      // The cursor's line over the usage chart moves right as the cursor does (a line element, not a redraw).
      const lineX = async () => (await usage.locator('.replay-cursor-line').boundingBox())?.x ?? NaN;
      const lines: number[] = [];
      for (const at of [5, data.marks[0].index, summary.count - 1]) {
        const seq = summary.columns.seq[at];
        await gotoSeq(page, seq);
        const tokens = engine.state({ index: at, window: { from: 0, count: 0 } }).tokens;
        await usage.locator('figcaption strong', { hasText: `~${tokens.toLocaleString('en')}` }).waitFor({ timeout: 10_000 });
        lines.push(await lineX());
      }
      assert.ok(lines[0] < lines[1] && lines[1] < lines[2], `the cursor line moves right with the cursor (x ${lines.join(', ')})`);
      const over = (await usage.locator('.u-over').boundingBox())!;
      assert.ok(Math.abs(lines[2] - (over.x + over.width)) <= 3, `at the last event the line is at the plot's right edge (${lines[2]} vs ${over.x + over.width})`);
      await shot('charts-light');
      // A click on the middle of the bars: the cursor lands on the cut of the call under it.
      await calls.locator('.u-over').scrollIntoViewIfNeeded();
      const box = (await calls.locator('.u-over').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height - 4);
      await page.mouse.click(box.x + box.width / 2, box.y + box.height - 4);
      const cuts = new Set(data.calls.map((c) => c.index));
      for (const end = Date.now() + 5000; Date.now() < end && !cuts.has(Number(await slider(page).inputValue()));) await page.waitForTimeout(50);
      assert.ok(cuts.has(Number(await slider(page).inputValue())), 'the click moved the cursor to a call\'s cut');
      await calls.locator('.chart-hover').waitFor();
      // Cost: the shipped prices cover this log's model; an edit of the table changes the total.
      const cost = page.getByRole('figure', { name: 'Cost' });
      const total = cost.locator('figcaption strong');
      const before = await total.innerText();
      await cost.getByText(/^Price table/).click();
      await cost.getByRole('spinbutton', { name: 'output price of deepseek-v4-flash' }).fill('1000');
      for (const end = Date.now() + 5000; Date.now() < end && (await total.innerText()) === before;) await page.waitForTimeout(50);
      assert.notEqual(await total.innerText(), before, 'an edited price changes the cost');
      await page.getByLabel('Theme').selectOption('dark');
      await shot('charts-dark');
    },
  };
}
