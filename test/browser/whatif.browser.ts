// What if (docs/whatif.md) in the built app: undo a compaction of the demo log from the
// Event detail, re-fold, and compare mode opens on the edited log; its first divergence and
// per-call token changes are the core's; the link reopens the same edits; the download is
// the core's edited log.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { readLogText } from '../../src/core/log/reader.ts';
import type { Edit } from '../../src/core/whatif/edits.ts';
import { whatIf } from '../../src/core/whatif/whatif.ts';
import { gotoSeq, ready, waitFor } from './helpers.ts';

type Case = (ctx: { page: Page; baseUrl: string; shot: (name: string) => Promise<unknown> }) => Promise<void>;

const compareRegion = (page: Page) => page.getByRole('region', { name: 'Compare', exact: true });

export const whatIfTests: Record<string, Case> = {
  async 'what if: undo a compaction of the demo log, the comparison opens at the changed call, the link reopens the edits, the download is the edited log'({ page, baseUrl, shot }) {
    const text = fs.readFileSync(path.resolve(process.env.DIST_DIR ?? 'dist', 'demo', 'demo-session.jsonl'), 'utf8');
    const replace = readLogText(text).events.filter((e) => e.surfaceOp && e.surfaceOp !== 'append').at(-1);
    assert.ok(replace, 'the demo log compacts');
    const edits: Edit[] = [{ kind: 'undo-replace', seq: replace.seq }];
    const core = whatIf(text, edits, 'demo-session.jsonl');
    const first = core.report.firstDivergence;
    assert.ok(first, 'undoing the compaction changes a later call');

    await page.goto(baseUrl);
    await ready(page);
    await gotoSeq(page, replace.seq);
    const actions = page.getByRole('group', { name: 'What if' });
    await actions.getByRole('button', { name: 'undo this replace' }).click();
    const bar = page.getByRole('region', { name: 'What if' });
    await bar.getByRole('list', { name: 'Edits' }).getByText(`undo the replace at seq ${replace.seq}`).waitFor();
    await bar.getByRole('button', { name: 'Re-fold and compare' }).click();

    const region = compareRegion(page);
    await region.waitFor({ timeout: 30000 });
    const result = region.getByRole('status', { name: 'Comparison result' });
    await result.getByText('First divergence').waitFor();
    assert.match(await result.innerText(), new RegExp(`call ${first.callA}\\b`), 'the divergence names the changed call');
    assert.match(await region.innerText(), /demo-session\.whatif\.jsonl/);
    // Each changed call with the core's token estimates.
    const calls = region.getByRole('region', { name: 'What the edits change' });
    const changed = core.report.calls.filter((c) => c.status !== 'same');
    assert.equal(await calls.locator('tbody tr').count(), changed.length);
    const firstRow = calls.locator('tbody tr').first();
    const label = await firstRow.getAttribute('aria-label');
    assert.ok(label?.includes(`${changed[0].tokensBefore!.toLocaleString('en-US')} → ${changed[0].tokensAfter!.toLocaleString('en-US')} input tokens`), `${label}`);
    await shot('whatif-compare');

    // The edited log downloads as the core makes it.
    const [download] = await Promise.all([page.waitForEvent('download'), bar.getByRole('button', { name: 'Download edited log' }).click()]);
    assert.equal(download.suggestedFilename(), 'demo-session.whatif.jsonl');
    assert.equal(fs.readFileSync((await download.path())!, 'utf8'), core.editedText);

    // The link carries the edits (not the log) and reopens the comparison.
    await waitFor(async () => /[#&]wi=/.test(page.url()) && /[#&]wo=1/.test(page.url()), 'the link names the edits');
    const link = page.url();
    const again = await page.context().newPage();
    await again.goto(link);
    await compareRegion(again).getByRole('status', { name: 'Comparison result' }).getByText('First divergence').waitFor({ timeout: 30000 });
    await again.getByRole('region', { name: 'What if' }).getByText(`undo the replace at seq ${replace.seq}`).waitFor();
    assert.match(await compareRegion(again).getByRole('status', { name: 'Comparison result' }).innerText(), new RegExp(`call ${first.callA}\\b`));
    await again.close();

    // Back to the log, and clearing the edits leaves no what-if behind.
    await bar.getByRole('button', { name: 'Back to the log' }).click();
    await ready(page);
    await bar.getByRole('button', { name: 'Clear' }).click();
    assert.equal(await page.getByRole('region', { name: 'What if' }).count(), 0);
    await waitFor(async () => !/[#&]wi=/.test(page.url()), 'the link drops the edits');
  },
};
