// Scrubbing a generated 1M-event log: measured with the Performance API and
// reported (not asserted): load time, and frame times while stepping.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { ready } from './helpers.ts';

type Case = (ctx: { page: Page; baseUrl: string; shot: (name: string) => Promise<unknown> }) => Promise<void>;

export const perfTests: Record<string, Case> = {
  async 'perf: a 1M-event log loads and scrubs; frame times reported'({ page, baseUrl, shot }) {
    const turns = Number(process.env.PERF_TURNS ?? 1400);
    const log = generateLog({ dialect: 'v0', seed: 11, turns, stepsPerTurn: 5 });
    const file = path.join(os.tmpdir(), 'dsh-perf-1m.jsonl');
    fs.writeFileSync(file, log.text);
    const mb = (log.text.length / 1048576).toFixed(1);
    await page.goto(baseUrl);
    await ready(page);
    const t0 = Date.now();
    await page.getByLabel('Open log').setInputFiles(file);
    await page.locator('.session-name', { hasText: 'dsh-perf-1m.jsonl' }).waitFor({ timeout: 300000 });
    const loadMs = Date.now() - t0;
    const count = await page.getByRole('slider', { name: 'Replay cursor' }).getAttribute('max');
    // Frame times while stepping the cursor 120 times with the keyboard.
    // A string, not a function: the test runner's transpiler would add helpers the page lacks.
    await page.evaluate(`(() => {
      window.__frames = [];
      let last = performance.now();
      const tick = (now) => { window.__frames.push(now - last); last = now; if (window.__frames.length < 100000) requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
    })()`);
    for (let i = 0; i < 120; i++) await page.keyboard.press(i % 10 === 9 ? 'PageDown' : 'ArrowRight');
    await page.waitForTimeout(300);
    const frames = (await page.evaluate('window.__frames.slice(1)')) as number[];
    frames.sort((a, b) => a - b);
    const q = (p: number) => frames[Math.min(frames.length - 1, Math.floor(p * frames.length))].toFixed(1);
    console.log(`  perf: ${log.events.length} events (${mb} MB, ${Number(count) + 1} incl. synthetic) loaded in ${loadMs} ms; ` +
      `stepping frames: median ${q(0.5)} ms, p95 ${q(0.95)} ms, max ${frames.at(-1)!.toFixed(1)} ms over ${frames.length} frames`);
    await shot('perf-1m');
    fs.rmSync(file);
  },
};
