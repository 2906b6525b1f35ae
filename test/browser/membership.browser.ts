// Issue #19: the context-membership lane on the timeline. At several cursors the bars the cursor
// crosses are the nodes the Surface panel lists, and the lane's text alternative counts them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { readLogText } from '../../src/core/log/reader.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { foldSurface } from '../../src/core/surface/fold.ts';
import { gotoSeq, openFile, ready, surfaceNodeSeqs } from './helpers.ts';

type Case = (ctx: { page: Page; baseUrl: string; shot: (name: string) => Promise<unknown> }) => Promise<void>;

/** Polls until `check` holds (the page's CSP forbids waitForFunction's eval). */
async function until(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`timed out waiting for ${what}`);
}

const lane = (page: Page) => page.getByRole('img', { name: 'Context membership' });
const crossed = async (page: Page) => ((await lane(page).getAttribute('data-crossed')) ?? '').split(',').filter(Boolean).map(Number);
/** The node count the Surface panel's Generations line gives. */
const surfaceCount = async (page: Page) => Number(/^([\d,]+) nodes/.exec((await page.getByRole('region', { name: 'Surface' }).getByLabel('Generations').innerText()).trim())?.[1].replaceAll(',', '') ?? NaN);
/** "N nodes on the surface at the cursor; M ever" — N, read from the lane's description. */
const readoutCount = async (page: Page) => {
  const id = await lane(page).getAttribute('aria-describedby');
  const text = await page.locator(`[id="${id}"]`).innerText();
  return Number(/^([\d,]+) nodes? on the surface at the cursor; [\d,]+ ever/.exec(text)?.[1].replace(/,/g, '') ?? NaN);
};

export function membershipTests(dir: string | null): Record<string, Case> {
  return {
    async 'issue 19: the context-membership lane crosses exactly the surface at the cursor (a compaction log); light and dark'({ page, baseUrl, shot }) {
      // A corpus log with a compaction when the corpus is here, else the demo (which has compactions too).
      const name = dir ? 'headless-compaction-recovery.jsonl' : 'demo-session.jsonl';
      const file = dir ? path.join(dir, name) : path.join('public', 'demo', name);
      const buffer = fs.readFileSync(file);
      const session = foldSession(readLogText(buffer.toString('utf8')));
      const replace = session.surface.replacements[0];
      assert.ok(replace, `${name} has a replace`);
      await page.goto(baseUrl);
      await ready(page);
      if (dir) await openFile(page, name, buffer);
      await lane(page).waitFor({ timeout: 10000 });
      for (const seq of [replace.seq - 1, replace.seq, session.events.at(-1)!.seq]) {
        await gotoSeq(page, seq);
        // The panel asks the worker and draws its count, then its list; the lane answers at once: wait
        // for the two to agree on the count and on the nodes the panel lists (a window of a long
        // surface: the lane's order must match what it lists). They must agree within the wait.
        const agreement = async () => {
          const [listed, total, seqs, readout] = [await surfaceNodeSeqs(page), await surfaceCount(page), await crossed(page), await readoutCount(page)];
          return { total, seqs, agrees: readout === total && seqs.length === total && (total === 0 || listed.length > 0) && listed.length <= total && listed.every((s, k) => seqs[k] === s) };
        };
        await until(`the lane and the Surface panel agree on the nodes at seq ${seq}`, async () => (await agreement()).agrees);
        const { seqs } = await agreement();
        // …and they are the core's surface after that event, in order.
        assert.deepEqual(seqs, foldSurface(session.events.filter((e) => e.seq <= seq), session.read.dialect).state.nodes, `the core's surface at seq ${seq}`);
      }
      await gotoSeq(page, replace.seq);
      await shot('membership-light');
      await page.getByLabel('Theme').selectOption('dark');
      await shot('membership-dark');
      // The toggle hides the lane and brings it back.
      const toggle = page.getByRole('region', { name: 'Timeline' }).getByRole('button', { name: 'Context' });
      assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
      await toggle.click();
      await until('the lane hidden', async () => (await lane(page).count()) === 0);
      await toggle.click();
      await lane(page).waitFor();
    },
  };
}
