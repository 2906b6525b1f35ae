// Compare mode in the built app (issue #20): two runs aligned call by call,
// the first divergence marked and explained, both surfaces equal to the core.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { compareRuns } from '../../src/core/compare/compare.ts';
import { loadRun } from '../../src/core/compare/run.ts';
import { generateLog, generateVariant } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import type { LogEvent } from '../../src/core/log/types.ts';
import { foldSurface } from '../../src/core/surface/fold.ts';
import { ready } from './helpers.ts';

type Case = (ctx: { page: Page; baseUrl: string; shot: (name: string) => Promise<unknown> }) => Promise<void>;

/** Both runs as the core sees them, and the seq each side's cursor takes on a row (the event before the call's cut). */
function coreOf(textA: string, textB: string) {
  const readA = readLogText(textA);
  const readB = readLogText(textB);
  const a = loadRun(readA, 'a');
  const b = loadRun(readB, 'b');
  const report = compareRuns(a.run, b.run);
  const before = (events: LogEvent[], cut: number) => events[Math.max(0, events.findIndex((e) => e.seq === cut) - 1)].seq;
  const seqsAt = (row: number) => {
    const r = report.rows[row];
    return {
      a: r.a === null ? null : before(readA.events, a.run.requests[r.a].cut),
      b: r.b === null ? null : before(readB.events, b.run.requests[r.b].cut),
    };
  };
  const nodesAt = (side: 'a' | 'b', seq: number) => {
    const read = side === 'a' ? readA : readB;
    return foldSurface(read.events.filter((e) => e.seq <= seq), read.dialect).state.nodes;
  };
  return { a, b, report, seqsAt, nodesAt };
}

const compareRegion = (page: Page) => page.getByRole('region', { name: 'Compare', exact: true });
const currentRow = (page: Page) => page.locator('[role=option][aria-selected=true]');

async function waitRow(page: Page, row: number): Promise<void> {
  await page.locator(`#compare-row-${row}[aria-selected=true]`).waitFor({ timeout: 10000 });
}

/** A side's cursor seq, as its cursor bar shows it. */
async function cursorSeq(page: Page, side: 'A' | 'B'): Promise<number> {
  const text = await page.getByLabel(`${side} position`).innerText();
  return Number(/^seq (\d+)/.exec(text)![1]);
}

/** The Surface tab's node seqs for one side, once the panel shows that side at `seq`. */
async function surfaceSeqs(page: Page, side: 'a' | 'b', seq: number): Promise<number[]> {
  const panel = page.getByLabel('Paired surfaces');
  await panel.getByText(new RegExp(`${side.toUpperCase()}: \\d+ nodes, \\d+ messages at seq ${seq}\\b`)).waitFor({ timeout: 10000 });
  return panel.locator(`[data-side="${side}"]`).evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-seq'))));
}

async function expectSurfaces(page: Page, core: ReturnType<typeof coreOf>, label: string): Promise<void> {
  const sa = await cursorSeq(page, 'A');
  const sb = await cursorSeq(page, 'B');
  assert.deepEqual(await surfaceSeqs(page, 'a', sa), core.nodesAt('a', sa), `${label}: surface A at seq ${sa}`);
  assert.deepEqual(await surfaceSeqs(page, 'b', sb), core.nodesAt('b', sb), `${label}: surface B at seq ${sb}`);
}

const opts = { dialect: 'v4' as const, seed: 5, turns: 4, compactEvery: 0 };
const textA = generateLog(opts).text;
const k = loadRun(readLogText(textA), 'a').run.requests.findIndex((r, i) => i > 4 && r.attempt === 1 && r.step > 1) + 1;
const textB = generateVariant(opts, { atCall: k, change: 'model' }).text;

export const compareTests: Record<string, Case> = {
  async 'compare: two runs dropped together open in compare mode; the first divergence is marked, explained and stepped to'({ page, baseUrl, shot }) {
    const core = coreOf(textA, textB);
    const first = core.report.firstDivergence!;
    assert.equal(first.callA, k);
    await page.goto(baseUrl);
    await ready(page);
    await page.getByLabel('Open log').setInputFiles([
      { name: 'run-a.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(textA) },
      { name: 'run-b.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(textB) },
    ]);
    await compareRegion(page).waitFor({ timeout: 30000 });
    // The shared cursor starts on the first divergence, marked as such.
    await waitRow(page, first.row);
    assert.match(await currentRow(page).getAttribute('aria-label') ?? '', /first divergence/);
    await page.getByLabel('Comparison result').getByText(`call ${k} of A (seq ${first.seqA}) vs call ${k} of B (seq ${first.seqB}): config differs`).waitFor();
    const config = page.getByRole('region', { name: 'Config difference' });
    await config.getByRole('cell', { name: '"deepseek-v4-pro"' }).first().waitFor();
    assert.match(await config.innerText(), /model\s+"deepseek-v4-(flash|pro)"\s+"deepseek-v4-(flash|pro)"/);
    await shot('compare-divergence');
    // Steps: the next difference (e), back one row, and the rows before it are the same requests.
    const next = core.report.rows.findIndex((r, i) => i > first.row && r.status !== 'same');
    await page.keyboard.press('e');
    await waitRow(page, next);
    await page.keyboard.press('ArrowLeft');
    await waitRow(page, next - 1);
    await page.getByRole('button', { name: 'Previous aligned call (both sides)' }).click();
    await waitRow(page, next - 2);
    // The link carries compare mode and the shared cursor (written once the cursor rests).
    await page.waitForFunction((row) => location.hash.includes('cmp=1') && location.hash.includes(`cr=${row}&`), next - 2, { timeout: 5000 });
    await page.getByLabel('Theme').selectOption('dark');
    await page.getByRole('tab', { name: 'Surface' }).click();
    await expectSurfaces(page, core, 'after stepping');
    await shot('compare-surface-dark');
  },

  async 'compare: a log against a file that is not a log says why and lists its calls as gaps'({ page, baseUrl, shot }) {
    await page.goto(baseUrl);
    await ready(page);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 1, 0, 0, 0, 1, 0, 8, 6, 0, 0, 0]);
    await page.getByLabel('Open log').setInputFiles([
      { name: 'run-a.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(textA) },
      { name: 'photo.png', mimeType: 'image/png', buffer: png },
    ]);
    await compareRegion(page).waitFor({ timeout: 30000 });
    await page.getByRole('note').filter({ hasText: /^B \(photo\.png\): / }).waitFor();
    const calls = loadRun(readLogText(textA), 'a').run.requests.length;
    await page.getByLabel('Comparison result').getByText(`0 of ${calls} (A) and 0 (B) calls aligned`).waitFor();
    assert.equal(await page.locator('[role=option].st-a-only').count() > 0, true);
    assert.equal(await page.locator('[role=option]:not(.st-a-only)').count(), 0);
    await shot('compare-not-a-log');
  },

  async 'compare: ?url=A&vs=B with a compare hash restores the mode, the row and both cursors'({ page, baseUrl }) {
    const demo = (f: string) => fs.readFileSync(path.join('dist', 'demo', f), 'utf8');
    const core = coreOf(demo('demo-session.jsonl'), demo('demo-session-subagent.jsonl'));
    const row = 3;
    const at = core.seqsAt(row);
    const indexB = readLogText(demo('demo-session-subagent.jsonl')).events.findIndex((e) => e.seq === at.b) - 1;
    const url = (f: string) => encodeURIComponent(new URL(`demo/${f}`, baseUrl).href);
    await page.goto(`${baseUrl}?url=${url('demo-session.jsonl')}&vs=${url('demo-session-subagent.jsonl')}#cmp=1&cr=${row}&cb=${indexB}`);
    await compareRegion(page).waitFor({ timeout: 30000 });
    await waitRow(page, row);
    await page.getByLabel('B position').getByText(new RegExp(`^seq ${at.b! - 1} `)).waitFor({ timeout: 10000 });
    assert.equal(await cursorSeq(page, 'A'), at.a);
    await page.locator('.side-cursor', { hasText: 'moved alone' }).waitFor();
    await page.getByText(/B is forked from A at seq \d+ \(\d+ inherited calls\)/).waitFor();
  },
};

export function compareCorpusTests(dir: string): Record<string, Case> {
  const file = (name: string) => fs.readFileSync(path.join(dir, name));
  return {
    async 'corpus compare: a fork child against its parent from the fork cut; both surfaces equal the core at each cursor'({ page, baseUrl, shot }) {
      const parent = 'acp-subagent-mixed.jsonl';
      const child = 'acp-subagent-mixed.2.jsonl';
      const core = coreOf(file(parent).toString('utf8'), file(child).toString('utf8'));
      const first = core.report.firstDivergence!;
      assert.ok(core.report.fork && core.report.fork.inheritedCalls > 0);
      await page.goto(baseUrl);
      await ready(page);
      // A parent and its child open as a workspace; Compare with… offers the child from the fork cut.
      await page.getByLabel('Open log').setInputFiles([
        { name: parent, mimeType: 'application/x-ndjson', buffer: file(parent) },
        { name: child, mimeType: 'application/x-ndjson', buffer: file(child) },
      ]);
      await page.locator('.session-name', { hasText: parent }).waitFor({ timeout: 30000 });
      await page.getByRole('button', { name: 'Compare with…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Compare with' });
      await dialog.getByText('fork child: from the fork cut').waitFor();
      await dialog.getByRole('button', { name: child }).click();
      await compareRegion(page).waitFor({ timeout: 30000 });
      // The divergence marker: the first call after the cut, where the shared cursor starts.
      await waitRow(page, first.row);
      assert.match(await currentRow(page).getAttribute('aria-label') ?? '', /first divergence/);
      assert.equal(await page.locator('[role=option].inherited').count(), core.report.fork!.inheritedCalls);
      await page.getByRole('tab', { name: 'Surface' }).click();
      // Three shared cursors: the first row (inherited), the divergence, the row after it; each side equals the core.
      for (const row of [0, first.row, first.row + 1]) {
        await page.locator(`#compare-row-${row}`).click();
        await waitRow(page, row);
        const at = core.seqsAt(row);
        if (at.a !== null) assert.equal(await cursorSeq(page, 'A'), at.a, `row ${row}: A's cursor`);
        if (at.b !== null) assert.equal(await cursorSeq(page, 'B'), at.b, `row ${row}: B's cursor`);
        await expectSurfaces(page, core, `row ${row}`);
      }
      // Before the cut the two surfaces are the same messages, pair by pair.
      await page.locator('#compare-row-0').click();
      await waitRow(page, 0);
      await page.getByLabel('Paired surfaces').locator('.paired-row.pair-same').first().waitFor();
      // The pairs of the row before may still be on screen for a moment: polled until row 0's are drawn.
      const unpaired = page.getByLabel('Node pairs').locator('.paired-row:not(.pair-same)');
      for (const end = Date.now() + 10_000; Date.now() < end && (await unpaired.count()) > 0;) await page.waitForTimeout(50);
      assert.equal(await unpaired.count(), 0, 'before the cut every node pairs with the same message');
      // One side moved alone: B steps one event on, A stays.
      const sa = await cursorSeq(page, 'A');
      await page.getByRole('button', { name: 'B: next event' }).click();
      await page.locator('.side-cursor', { hasText: 'moved alone' }).waitFor();
      assert.equal(await cursorSeq(page, 'A'), sa);
      await expectSurfaces(page, core, 'B moved alone');
      await shot('compare-corpus-fork');
      await page.getByLabel('Theme').selectOption('dark');
      await page.locator(`#compare-row-${first.row}`).click();
      await page.getByRole('tab', { name: 'Difference' }).click();
      const messages = page.getByRole('region', { name: 'Messages difference' });
      await messages.waitFor();
      // The differing messages are shown as messages (issue #17's message view), one per side that has one.
      assert.ok((await messages.locator('[aria-label="The two messages"] article.msg').count()) >= 1, 'the differing message is shown with the message view');
      await shot('compare-corpus-fork-dark');
    },
  };
}
