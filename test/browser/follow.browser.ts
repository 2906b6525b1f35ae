// Issue #21 in the built app: `?url=…&follow=1` on a log served by
// serve-logs (Range, CORS for the app only) that grows between polls. The
// slider's maximum and the surface follow the tail; with the cursor moved
// back it stays, and "Live ▸ N new events" brings it back.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startFolderServer } from '../../src/cli/serve/log-folder-server.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { SessionLoader } from '../../src/core/session/session-loader.ts';
import { eventLookup } from '../../src/core/surface/fold.ts';
import { gotoSeq, ready, surfaceAsShown } from './helpers.ts';

type Case = (ctx: { page: Page; baseUrl: string; origin: string; allowOrigin(o: string): void; shot: (name: string) => Promise<unknown> }) => Promise<void>;

/** Polls `read` until it equals `want` (the page's CSP forbids waitForFunction's eval). */
async function until<T>(what: string, read: () => Promise<T>, want: T, ms = 15_000): Promise<void> {
  let got: T | undefined;
  for (const end = Date.now() + ms; Date.now() < end;) {
    got = await read();
    if (JSON.stringify(got) === JSON.stringify(want)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.deepEqual(got, want, what);
}

/**
 * A live log as the page shows it while following: the committed events and the surface after the
 * last one, without the restore's closers (they wait for the input to end, when following stops).
 */
function liveFold(committed: string) {
  const read = readLogText(committed);
  const loader = new SessionLoader(read, { eventAt: eventLookup(read.events) });
  for (const event of read.events) loader.push(event);
  return { read, events: read.events, surface: loader.state };
}

const slider = (page: Page) => page.getByRole('slider', { name: 'Replay cursor' });
const sliderMax = async (page: Page) => Number(await slider(page).getAttribute('max'));
const sliderIndex = async (page: Page) => Number(await slider(page).inputValue());

/** A log served by serve-logs (Range, CORS for the app only), `first` written so far, opened with `?url=…&follow=1` and followed. */
async function followServed(ctx: Parameters<Case>[0], first: string): Promise<{ file: string; server: Awaited<ReturnType<typeof startFolderServer>> }> {
  const { page, baseUrl, origin, allowOrigin } = ctx;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-follow-browser-')), 'live.jsonl');
  fs.writeFileSync(file, first);
  const server = await startFolderServer({ dir: path.dirname(file), port: 0, origins: [origin] });
  allowOrigin(server.base.replace(/\/$/, ''));
  await page.goto(`${baseUrl}?url=${encodeURIComponent(`${server.base}live.jsonl`)}&follow=1`);
  await ready(page);
  await page.getByRole('button', { name: '● Following' }).waitFor({ timeout: 15_000 });
  return { file, server };
}

export const followTests: Record<string, Case> = {
  async 'issue 21: a served URL that grows is followed; the cursor stays when moved back and "Live ▸ N new events" returns to the tail'(ctx) {
    const { page, shot } = ctx;
    const text = generateLog({ dialect: 'v4', seed: 21, turns: 6 }).text;
    const lines = text.split(/(?<=\n)/);
    const upTo = (n: number) => lines.slice(0, n).join('');
    const expected = liveFold;
    const { file, server } = await followServed(ctx, upTo(40));
    try {
      let session = expected(upTo(40));
      await until('slider max at start', () => sliderMax(page), session.events.length - 1);
      // A bookmark made now stays with the log as it grows (its fingerprint changes with its size).
      await page.locator('body').click({ position: { x: 5, y: 5 } }).catch(() => {});
      await page.keyboard.press('Shift+M');
      await until('a bookmark flag', () => page.locator('.timeline .note-flag').count(), 1);

      // The writer appends whole lines and half a line: the half is pending, not torn.
      const third = lines[60];
      fs.appendFileSync(file, upTo(60).slice(upTo(40).length) + third.slice(0, 25));
      session = expected(upTo(60));
      await until('slider max follows', () => sliderMax(page), session.events.length - 1);
      await until('cursor on the new end', () => sliderIndex(page), session.events.length - 1);
      await until('surface follows', () => surfaceAsShown(page, session.surface.nodes), session.surface.nodes);
      assert.equal(await page.locator('.timeline .note-flag').count(), 1, 'the bookmark survives the refresh');
      await page.locator('.follow-pending').waitFor();
      assert.equal(await page.getByText(/Torn tail/i).count(), 0, 'a pending line is not a torn tail');
      await shot('follow-live-light');

      // The user moves back: the cursor stays while events arrive, and the control counts them.
      await gotoSeq(page, 10);
      const before = await sliderIndex(page);
      fs.appendFileSync(file, third.slice(25) + upTo(90).slice(upTo(61).length));
      const grown = expected(upTo(90));
      await until('slider max grows with the cursor back', () => sliderMax(page), grown.events.length - 1);
      assert.equal(await sliderIndex(page), before, 'the cursor stays where the user put it');
      const added = grown.read.events.length - session.read.events.length;
      const live = page.getByRole('button', { name: `Live ▸ ${added} new events` });
      await live.waitFor({ timeout: 10_000 });
      await page.evaluate(() => { document.documentElement.dataset.theme = 'dark'; });
      await shot('follow-new-events-dark');
      await page.evaluate(() => { delete document.documentElement.dataset.theme; });
      await live.click();
      await until('Live returns to the tail', () => sliderIndex(page), grown.events.length - 1);
      await until('surface at the tail', () => surfaceAsShown(page, grown.surface.nodes), grown.surface.nodes);
      assert.equal(await live.count(), 0, 'the control goes once at the tail');

      // A finding that arrives is announced as a count, not popped up; the badge opens Diagnostics.
      // (A bad row is a finding once a good row follows it; the last row alone could still be a torn tail.)
      fs.appendFileSync(file, '{"not":"an event"}\n' + lines.slice(90).join(''));
      const badge = page.locator('.follow-findings');
      await badge.waitFor({ timeout: 15_000 });
      assert.match(await badge.getAttribute('aria-label') ?? '', /^\d+ new findings?$/);
      await badge.click();
      await page.getByRole('tab', { name: /Diagnostics/, selected: true }).waitFor();

      // The file is truncated and rewritten by a new session: the app says so and reads it from the start.
      const other = generateLog({ dialect: 'v4', seed: 22, turns: 1 }).text;
      fs.writeFileSync(file, other);
      await page.getByText(/re-opened from its start/).waitFor({ timeout: 15_000 });
      const fresh = expected(other);
      await until('the new log', () => sliderMax(page), fresh.events.length - 1);

      // Off: the input ends.
      await page.getByRole('button', { name: '● Following' }).click();
      await page.getByRole('button', { name: 'Follow', exact: true }).waitFor();
    } finally {
      await server.close();
    }
  },

  async 'issue 21: at a followed log\'s tail the surface list keeps the newest node in view, the last event being no node'(ctx) {
    const { page } = ctx;
    const lines = generateLog({ dialect: 'v4', seed: 21, turns: 6 }).text.split(/(?<=\n)/);
    const upTo = (n: number) => lines.slice(0, n).join('');
    const { file, server } = await followServed(ctx, upTo(40));
    try {
      // 80 lines end on a step/end (no node), with more nodes than the list shows at once.
      fs.appendFileSync(file, upTo(80).slice(upTo(40).length));
      const live = liveFold(upTo(80));
      const newest = live.surface.nodes.at(-1)!;
      assert.ok(!live.surface.nodes.includes(live.events.at(-1)!.seq), 'the last event is not a node');
      await until('slider max follows', () => sliderMax(page), live.events.length - 1);
      const list = page.getByRole('list', { name: 'Surface nodes' });
      const inView = () => list.evaluate((el, seq) => {
        const row = [...el.querySelectorAll('[role=listitem].node .seq')].find((s) => Number(s.textContent) === seq);
        if (!row) return false;
        const a = el.getBoundingClientRect();
        const b = row.getBoundingClientRect();
        return b.top >= a.top - 1 && b.bottom <= a.bottom + 1;
      }, newest);
      await until('the newest node in view', inView, true);
      const firstShown = await list.evaluate((el) => {
        const a = el.getBoundingClientRect();
        return [...el.querySelectorAll('[role=listitem].node .seq')].map((s) => [Number(s.textContent), s.getBoundingClientRect().top] as const).filter(([, top]) => top >= a.top - 1)[0]?.[0];
      });
      assert.notEqual(firstShown, live.surface.nodes[0], 'the list scrolled down to the newest node (it holds more than it shows)');
    } finally {
      await server.close();
    }
  },

  async 'issue 21: a local file opened through the picker is followed through its handle as it grows'({ page, baseUrl, shot }) {
    const text = generateLog({ dialect: 'v0', seed: 12, turns: 4 }).text;
    const lines = text.split(/(?<=\n)/);
    const upTo = (n: number) => lines.slice(0, n).join('');
    await page.goto(baseUrl);
    await ready(page);
    // A real FileSystemFileHandle (the origin-private file system) stands in for the one the user picks.
    await page.evaluate(async (start) => {
      const root = await navigator.storage.getDirectory();
      const handle = await root.getFileHandle('growing.jsonl', { create: true });
      const w = await handle.createWritable();
      await w.write(start);
      await w.close();
      (window as unknown as { showOpenFilePicker: () => Promise<FileSystemFileHandle[]> }).showOpenFilePicker = async () => [handle];
    }, upTo(30));
    await page.getByRole('button', { name: 'Open log' }).click();
    await page.locator('.session-name', { hasText: 'growing.jsonl' }).waitFor();
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    await page.getByRole('button', { name: '● Following' }).waitFor();
    const append = (more: string) => page.evaluate(async (added) => {
      const root = await navigator.storage.getDirectory();
      const handle = await root.getFileHandle('growing.jsonl');
      const size = (await handle.getFile()).size;
      const w = await handle.createWritable({ keepExistingData: true });
      await w.seek(size);
      await w.write(added);
      await w.close();
    }, more);
    await append(upTo(70).slice(upTo(30).length));
    const session = liveFold(upTo(70));
    await until('slider max follows the file', () => sliderMax(page), session.events.length - 1);
    await until('surface follows the file', () => surfaceAsShown(page, session.surface.nodes), session.surface.nodes);
    await shot('follow-file-handle');
  },

  async 'issue 21: dsh-devtools open --follow: the page follows the log the command serves'({ page, allowOrigin }) {
    const text = generateLog({ dialect: 'v4', seed: 23, turns: 3 }).text;
    const lines = text.split(/(?<=\n)/);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-open-follow-')), 'from-terminal.jsonl');
    fs.writeFileSync(file, lines.slice(0, 30).join(''));
    const child = spawn(process.execPath, ['dist-cli/dsh-devtools.mjs', 'open', file, '--no-browser', '--follow'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const url = new URL(await new Promise<string>((resolve) => child.stdout.setEncoding('utf8').once('data', (d: string) => resolve(d.split('\n')[0]))));
      allowOrigin(url.origin);
      await page.goto(url.href);
      await ready(page);
      await page.getByRole('button', { name: '● Following' }).waitFor({ timeout: 15_000 });
      fs.appendFileSync(file, lines.slice(30).join(''));
      const whole = liveFold(text);
      await until('slider max follows the served file', () => sliderMax(page), whole.events.length - 1);
    } finally {
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
    }
  },

  async 'issue 21: without the File System Access API, Follow on an opened file says why and offers Re-open'({ page, baseUrl }) {
    // A browser without showOpenFilePicker (Firefox, Safari): "Open log" falls back to the file input.
    await page.addInitScript(() => { delete (window as unknown as { showOpenFilePicker?: unknown }).showOpenFilePicker; });
    await page.goto(baseUrl);
    await ready(page);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-no-fsa-')), 'copied.jsonl');
    fs.writeFileSync(file, generateLog({ dialect: 'v4', seed: 5, turns: 2 }).text);
    await page.getByLabel('Open log').setInputFiles(file);
    await page.locator('.session-name', { hasText: 'copied.jsonl' }).waitFor();
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    await page.getByText(/no File System Access API/).waitFor();
    await page.getByRole('button', { name: 'Re-open…' }).waitFor();
  },

  async 'issue 21: Follow on a pasted log says why it cannot'({ page, baseUrl, shot }) {
    await page.goto(baseUrl);
    await ready(page);
    await page.getByRole('button', { name: 'Paste' }).click();
    await page.getByRole('textbox', { name: 'Log text' }).fill(generateLog({ dialect: 'v0', seed: 2, turns: 1 }).text);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.locator('.session-name', { hasText: 'pasted log' }).waitFor();
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    await page.getByText('A pasted log cannot grow').waitFor();
    await shot('follow-unavailable');
  },
};
