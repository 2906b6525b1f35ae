// Issue #22 in the built app: a log exported as one HTML file opens from
// file:// at its cursor with the core's surface, making no request and no CSP
// violation; a small log travels inside a link; a log over the limit, or a
// damaged link, says so. Planted secrets are searched in every output's bytes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { readLogText } from '../../src/core/log/reader.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { foldSurface } from '../../src/core/surface/fold.ts';
import { packLog, unpackLog } from '../../src/core/share/pack-log.ts';
import { appPartsFromHtml, embeddedLogOfHtml, singleFileHtml } from '../../src/core/share/single-file.ts';
import { fromBase64 } from '../../src/core/share/base64.ts';
import { logWithSecrets, PLANTED_TEXTS } from '../helpers/planted-secrets.ts';
import { assertProjectedAsCoresAllow, gotoSeq, openFile, ready, surfaceNodeSeqs } from './helpers.ts';

type Ctx = { page: Page; context: BrowserContext; baseUrl: string; allowOrigin: (o: string) => void; shot: (name: string) => Promise<unknown> };
type Case = (ctx: Ctx) => Promise<void>;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-share-'));
const secretsLog = logWithSecrets();

/** Opens a file:// page, recording every request it makes and every CSP violation it reports. */
async function openFromDisk(ctx: Ctx, file: string, query = ''): Promise<{ requests: string[]; violations: () => Promise<string[]> }> {
  ctx.allowOrigin(`file://${path.dirname(file)}`);
  const requests: string[] = [];
  ctx.page.on('request', (r) => requests.push(r.url()));
  await ctx.page.addInitScript(() => {
    const w = window as unknown as { __violations: string[] };
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await ctx.page.goto(`file://${file}${query}`);
  return { requests, violations: () => ctx.page.evaluate(() => (window as unknown as { __violations: string[] }).__violations) };
}

/** The surface the core folds at `seq` (shadowed nodes excluded), for a log's text. */
function coreSurface(text: string, seq: number): number[] {
  const session = foldSession(readLogText(text));
  return foldSurface(session.events.filter((e) => e.seq <= seq), session.read.dialect).state.nodes;
}

async function expectSurface(page: Page, expected: number[], what: string): Promise<void> {
  for (const until = Date.now() + 10_000; Date.now() < until;) {
    if ((await surfaceNodeSeqs(page)).length === expected.length) break;
    await page.waitForTimeout(50);
  }
  assert.deepEqual(await surfaceNodeSeqs(page), expected, what);
}

const cursorAt = (page: Page, seq: number) => page.getByLabel('Cursor position').getByText(new RegExp(`^seq ${seq} `)).waitFor({ timeout: 15000 });

/** No request but the file itself and the worker's Blob URL; no CSP violation. */
async function assertOffline(file: string, seen: { requests: string[]; violations: () => Promise<string[]> }): Promise<void> {
  const others = seen.requests.filter((u) => u !== `file://${file}` && !u.startsWith(`file://${file}#`) && !u.startsWith(`file://${file}?`) && !u.startsWith('blob:'));
  assert.deepEqual(others, [], 'requests besides the file and its worker');
  assert.ok(seen.requests.some((u) => u.startsWith('blob:')), 'the worker started from a Blob URL');
  assert.deepEqual(await seen.violations(), [], 'CSP violations');
}

/** The log a link or a file carries, decoded, to search for secrets. */
function assertNoSecrets(bytes: string, carriedText: string, what: string): void {
  for (const secret of PLANTED_TEXTS) {
    assert.ok(!bytes.includes(secret), `${what}: ${secret} in its bytes`);
    assert.ok(!carriedText.includes(secret), `${what}: ${secret} in the log it carries`);
  }
}

export function shareCorpusTests(dir: string): Record<string, Case> {
  const template = () => fs.readFileSync(path.resolve('dist', 'dsh-devtools.html'), 'utf8');
  return {
    async 'share: corpus logs exported as one HTML open from file:// at the exported cursor with the core\'s surface; no request, no CSP violation'(ctx) {
      for (const [name, pick] of [['headless-compaction-recovery.jsonl', 0.5], ['web-plan-review.jsonl', 0.7]] as const) {
        const bytes = fs.readFileSync(path.join(dir, name));
        const packed = await packLog([bytes], { redact: true });
        const text = new TextDecoder().decode(await unpackLog(packed.gzip));
        const seqs = foldSession(readLogText(text)).events.map((e) => e.seq);
        const seq = seqs[Math.floor(seqs.length * pick)];
        const file = path.join(tmp, name.replace('.jsonl', '.html'));
        fs.writeFileSync(file, await singleFileHtml(appPartsFromHtml(template()), { name, gzip: packed.gzip, redacted: true, redactions: packed.redactions, view: `cs=${seq}` }));
        const seen = await openFromDisk(ctx, file);
        await ready(ctx.page);
        await cursorAt(ctx.page, seq);
        await expectSurface(ctx.page, coreSurface(text, seq), `${name}: surface at seq ${seq}`);
        await ctx.page.getByRole('status', { name: 'Where this log came from' }).getByText(/is embedded in this file/).waitFor();
        await assertOffline(file, seen);
        await ctx.shot(`share-file-${name.replace('.jsonl', '')}`);
        ctx.page.removeAllListeners('request');
      }
    },
  };
}

export const shareTests: Record<string, Case> = {
  async 'share: Export → Self-contained HTML redacts the planted secrets, opens from file:// at the cursor, and Open log replaces its log'(ctx) {
    const { page, baseUrl, shot } = ctx;
    await page.goto(baseUrl);
    await ready(page);
    await openFile(page, 'secrets.jsonl', Buffer.from(secretsLog));
    await gotoSeq(page, 40);
    await page.waitForTimeout(400); // the address follows the cursor after a moment
    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('button', { name: 'Self-contained HTML…' }).click();
    const html = page.getByRole('region', { name: 'Self-contained HTML' });
    await html.getByText('6 secrets redacted').waitFor();
    await html.getByText('line 6: api key').waitFor();
    await shot('share-export-dialog');
    const [download] = await Promise.all([page.waitForEvent('download'), html.getByRole('button', { name: 'Download HTML' }).click()]);
    assert.equal(download.suggestedFilename(), 'secrets.html');
    const file = path.join(tmp, 'secrets.html');
    await download.saveAs(file);
    const bytes = fs.readFileSync(file, 'utf8');
    const embedded = embeddedLogOfHtml(bytes)!;
    const carried = zlib.gunzipSync(Buffer.from(fromBase64(embedded.data))).toString('utf8');
    assertNoSecrets(bytes, carried, 'the exported HTML');
    assert.ok(carried.includes('[REDACTED private key]'));
    assert.match(embedded.view, /(^|&)c=\d+/);

    const seen = await openFromDisk(ctx, file);
    await ready(page);
    await cursorAt(page, 40);
    const notice = page.getByRole('status', { name: 'Where this log came from' });
    await notice.getByText(/secrets\.jsonl\s*is embedded in this file/).waitFor();
    await notice.getByText('6 secrets replaced').waitFor();
    await expectSurface(page, coreSurface(carried, 40), 'surface at seq 40');
    // The inspector shows the exported cursor's event too (the selection of the moment of export).
    await page.getByRole('region', { name: 'Event detail' }).getByText(/^seq 40 · /).first().waitFor({ timeout: 10000 });
    await assertOffline(file, seen);
    await shot('share-file-opened');
    for (const theme of ['light', 'dark']) {
      await page.getByLabel('Theme').selectOption(theme);
      await shot(`share-file-opened-${theme}`);
    }
    // The file exports itself again from its own blocks (it can fetch nothing): the same app, the same log.
    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('button', { name: 'Self-contained HTML…' }).click();
    const again = page.getByRole('region', { name: 'Self-contained HTML' });
    await again.getByText('0 secrets redacted').waitFor();
    const [second] = await Promise.all([page.waitForEvent('download'), again.getByRole('button', { name: 'Download HTML' }).click()]);
    const file2 = path.join(tmp, 'secrets-again.html');
    await second.saveAs(file2);
    const bytes2 = fs.readFileSync(file2, 'utf8');
    assert.deepEqual(appPartsFromHtml(bytes2), appPartsFromHtml(bytes), 'the app parts of the re-export');
    assert.equal(zlib.gunzipSync(Buffer.from(fromBase64(embeddedLogOfHtml(bytes2)!.data))).toString('utf8'), carried, 'the log of the re-export');
    await page.getByRole('button', { name: 'Close' }).click();
    // Open log still works, and the notice goes with the embedded log.
    await openFile(page, 'other.jsonl', Buffer.from(fs.readFileSync('public/demo/demo-session.jsonl')));
    await notice.waitFor({ state: 'detached' });
  },

  async 'share: Copy link carries a small log, redacted; a new page opens it with the same events and surface'({ page, baseUrl, shot }) {
    await page.goto(baseUrl);
    await ready(page);
    await openFile(page, 'secrets.jsonl', Buffer.from(secretsLog));
    const events = await page.locator('.session-name').innerText();
    await gotoSeq(page, 60);
    await page.waitForTimeout(400);
    await page.getByRole('button', { name: 'Copy link' }).click();
    const dialog = page.getByRole('dialog', { name: 'Copy link' });
    await dialog.getByText('6 secrets redacted').waitFor();
    const link = await dialog.getByRole('textbox', { name: 'Link with the log' }).inputValue();
    await shot('share-link-dialog');
    const fragment = new URL(link).hash;
    assert.ok(fragment.length <= 32 * 1024, `fragment of ${fragment.length} characters`);
    const carried = zlib.gunzipSync(Buffer.from(fromBase64(new URLSearchParams(fragment.slice(1)).get('z')!, true))).toString('utf8');
    assertNoSecrets(decodeURIComponent(link), carried, 'the link');

    await page.goto('about:blank');
    await page.goto(link);
    await ready(page);
    await cursorAt(page, 60);
    await page.getByRole('status', { name: 'Where this log came from' }).getByText(/secrets\.jsonl\s*is carried inside this link/).waitFor();
    assert.equal(await page.locator('.session-name').innerText(), events);
    await expectSurface(page, coreSurface(carried, 60), 'surface at seq 60');
    await shot('share-link-opened');
    // A reload keeps the link's log (it stays in the address while it is open).
    await page.waitForTimeout(400);
    await page.reload();
    await ready(page);
    await page.getByRole('status', { name: 'Where this log came from' }).waitFor();
  },

  async 'share: a log over the link limit gets a view-only link and the offer of the HTML export'({ page, baseUrl, shot }) {
    await page.goto(baseUrl);
    await ready(page);
    await openFile(page, 'secrets.jsonl', Buffer.from(secretsLog));
    await page.getByRole('button', { name: 'Copy link' }).click();
    const dialog = page.getByRole('dialog', { name: 'Copy link' });
    await dialog.getByRole('textbox', { name: 'Link with the log' }).waitFor();
    await dialog.getByRole('spinbutton', { name: 'Link limit in KB' }).fill('2');
    const tooBig = dialog.getByRole('alert', { name: 'Too big for a link' });
    await tooBig.getByText(/over the limit of 2\.0 KB: the link carries the view only/).waitFor();
    assert.equal(await dialog.getByRole('textbox', { name: 'Link with the log' }).count(), 0);
    await shot('share-link-too-big');
    await tooBig.getByRole('button', { name: 'Export self-contained HTML…' }).click();
    await page.getByRole('region', { name: 'Self-contained HTML' }).getByText('6 secrets redacted').waitFor();
  },

  async 'share: a cut, damaged or undecodable link says why and leaves an empty, usable app'({ page, baseUrl, shot }) {
    const packed = await packLog([Buffer.from(secretsLog)], { redact: true });
    const good = Buffer.from(packed.gzip).toString('base64url');
    const corrupt = Buffer.from(packed.gzip);
    for (let i = 30; i < 80; i++) corrupt[i] ^= 0x5a;
    const cases: [string, RegExp][] = [
      [`c=3&zn=a.jsonl&zr=6&zb=${packed.gzip.length}&z=${good.slice(0, good.length >> 1)}`, /cut short: it holds \d+ of its \d+ bytes/],
      [`zn=a.jsonl&zb=${packed.gzip.length}&z=${good.slice(0, 40)}*${good.slice(41)}`, /malformed: character "\*"/],
      [`zn=a.jsonl&zb=${packed.gzip.length}&z=${corrupt.toString('base64url')}`, /cannot be decompressed/],
    ];
    for (const [fragment, message] of cases) {
      await page.goto('about:blank');
      await page.goto(`${baseUrl}#${fragment}`);
      await page.getByRole('alert').getByText(message).waitFor();
      await page.getByRole('heading', { name: 'DSH Devtools' }).waitFor();
      assert.equal(await page.getByRole('grid').count(), 0, 'no log (not even the demo) behind the error');
    }
    await shot('share-link-damaged');
    await openFile(page, 'secrets.jsonl', Buffer.from(secretsLog));
    await ready(page);
  },

  async 'share: the single-file app alone (dist/dsh-devtools.html) opens from file:// empty, and opens a log'(ctx) {
    const file = path.join(tmp, 'dsh-devtools.html');
    fs.copyFileSync(path.resolve('dist', 'dsh-devtools.html'), file);
    // With the projection helper asked for (it starts from 4 cores): its two workers are copies of the one inline worker.
    const seen = await openFromDisk(ctx, file, '?helper=1');
    await ctx.page.getByRole('heading', { name: 'DSH Devtools' }).waitFor();
    await openFile(ctx.page, 'secrets.jsonl', Buffer.from(secretsLog));
    await ready(ctx.page);
    await assertProjectedAsCoresAllow(ctx.page);
    await assertOffline(file, seen);
  },
};
