// Broken logs in the browser: the page shows the findings, keeps what is readable,
// and logs no console error (the runner fails a case on any).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
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
