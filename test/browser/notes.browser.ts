// Notes and the command palette in the built app (docs/notes.md): a note added survives a reload,
// flags the timeline and the scrubber and is a step of the cursor; it travels with Copy link into a
// fresh browser, with Export → HTML into a file opened from disk, and as a sidecar file dropped with
// its log. The palette finds "replace" and Enter runs it; `#cmd=` runs a command; `?` lists the
// palette's table. Hostile note text stays text; no console error, no CSP violation.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { readNotesFile } from '../../src/core/notes/notes-file.ts';
import { ready } from './helpers.ts';

type Ctx = { page: Page; context: BrowserContext; baseUrl: string; allowOrigin: (o: string) => void; shot: (name: string) => Promise<unknown> };
type Case = (ctx: Ctx) => Promise<void>;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-notes-'));
const HOSTILE = '<img src=x onerror="window.__pwned=1"><b>the cache broke here</b>';
const demoText = () => fs.readFileSync(path.resolve(process.env.DIST_DIR ?? 'dist', 'demo', 'demo-session.jsonl'));

const readout = (page: Page) => page.getByLabel('Cursor position').innerText();
const seqOf = async (page: Page) => Number(/^seq (\d+)/.exec(await readout(page))![1]);
const cursorAt = (page: Page, seq: number) => page.getByLabel('Cursor position').getByText(new RegExp(`^seq ${seq} `)).waitFor({ timeout: 15000 });

/** Presses a key with the page (not a text box) focused. */
async function press(page: Page, key: string): Promise<void> {
  await page.locator('body').click({ position: { x: 5, y: 5 } }).catch(() => {});
  await page.keyboard.press(key);
}

async function gotoInBox(page: Page, text: string): Promise<void> {
  await press(page, 'g');
  await page.getByRole('textbox', { name: 'Seq' }).fill(text);
  await page.keyboard.press('Enter');
}

async function notesTab(page: Page) {
  await page.getByRole('tab', { name: /^Notes/ }).click();
  return page.getByLabel('Notes', { exact: true }).and(page.locator('.notes-panel'));
}

/** Adds a note at seq `seq` with the m box. */
async function addNote(page: Page, seq: number, text: string): Promise<void> {
  await gotoInBox(page, String(seq));
  await cursorAt(page, seq);
  await press(page, 'm');
  const box = page.getByRole('dialog', { name: 'New note' });
  await box.getByRole('textbox', { name: 'Note text' }).fill(text);
  await box.getByRole('button', { name: 'Add note' }).click();
  await box.waitFor({ state: 'detached' });
}

/** The app's CSP as the built page ships it, and what the page holds: they must be the same. */
async function assertCspIntact(page: Page): Promise<void> {
  const html = fs.readFileSync(path.resolve(process.env.DIST_DIR ?? 'dist', 'index.html'), 'utf8');
  const shipped = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
  assert.ok(shipped, 'the built page has a CSP');
  const live = await page.evaluate(`document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content')`);
  assert.equal(live, shipped.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
  assert.deepEqual(await page.evaluate('window.__violations ?? []'), [], 'CSP violations');
}

const watchCsp = (page: Page) => page.addInitScript(`(() => { window.__violations = []; document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI)); })()`);

export const notesTests: Record<string, Case> = {
  async 'notes: a note and a bookmark survive a reload, flag the timeline and scrubber, and are steps of the cursor; hostile text stays text'({ page, baseUrl, shot }) {
    await watchCsp(page);
    await page.goto(baseUrl);
    await ready(page);
    await addNote(page, 40, HOSTILE);
    await gotoInBox(page, '90');
    await cursorAt(page, 90);
    await press(page, 'Shift+M');
    let panel = await notesTab(page);
    await panel.locator('.note-row').nth(1).waitFor();
    await page.reload();
    await ready(page);
    panel = await notesTab(page);
    await panel.locator('.note-row').nth(1).waitFor();
    assert.equal(await panel.locator('.note-row').count(), 2);
    assert.equal(await panel.locator('.note-row .note-text').first().innerText(), HOSTILE, 'the text is shown as typed, not as markup');
    assert.equal(await panel.locator('.note-row img, .note-row b').count(), 0, 'no element made from note text');
    assert.equal(await page.evaluate('window.__pwned'), undefined);
    assert.match(await panel.locator('.note-row').nth(1).innerText(), /⚑ seq 90[\s\S]*\(bookmark\)/);
    assert.equal(await page.locator('.timeline .note-flag').count(), 2, 'two flags on the timeline');
    assert.equal(await page.locator('.scrub-track .note-flag').count(), 2, 'two flags on the scrubber');
    // n / Shift+N step between them, and the scrubber's buttons say when there is none.
    await press(page, 'Home');
    await press(page, 'n');
    await cursorAt(page, 40);
    await press(page, 'n');
    await cursorAt(page, 90);
    await page.waitForFunction(`document.querySelector('button[aria-label="Next note or bookmark"]').disabled`, undefined, { timeout: 5000 });
    await press(page, 'Shift+N');
    await cursorAt(page, 40);
    // A flag is a way there too.
    await page.locator('.timeline .note-flag').nth(1).click();
    await cursorAt(page, 90);
    // Edit, then delete.
    await panel.getByRole('button', { name: 'Edit note at seq 90' }).click();
    await panel.getByRole('textbox', { name: 'Note text' }).fill('compare from here');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText('compare from here').waitFor();
    await shot('notes-panel');
    await panel.getByRole('button', { name: 'Delete note at seq 90' }).click();
    await page.waitForFunction(`document.querySelectorAll('.timeline .note-flag').length === 1`);
    await assertCspIntact(page);
  },

  async 'notes travel: Copy link into a fresh browser, Export → HTML opened from disk, a sidecar file dropped with its log'({ page, context, baseUrl, allowOrigin, shot }) {
    await page.goto(baseUrl);
    await ready(page);
    await page.evaluate(`(() => { window.copied = []; Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (t) => { window.copied.push(t); } }, configurable: true }); })()`);
    await addNote(page, 40, 'where it forgot the goal');
    await (await notesTab(page)).locator('.note-row').first().waitFor();

    // Copy link: with the log when it fits, else view-only; the notes ride along either way.
    await page.getByRole('button', { name: 'Copy link' }).click();
    const dialog = page.getByRole('dialog', { name: 'Copy link' });
    await dialog.getByText(/Include my 1 note/).waitFor();
    const withLog = dialog.getByRole('button', { name: 'Copy link with the log' });
    const viewOnly = dialog.getByRole('button', { name: 'Copy view-only link' });
    await withLog.or(viewOnly).first().waitFor({ timeout: 20000 });
    await ((await withLog.count()) ? withLog : viewOnly).click();
    const link = ((await page.evaluate('window.copied')) as string[])[0];
    assert.match(link, /[#&]notes=/);
    const fresh = await context.browser()!.newContext({ viewport: { width: 1400, height: 900 } });
    const other = await fresh.newPage();
    const errors: string[] = [];
    other.on('pageerror', (e) => errors.push(String(e)));
    other.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await other.goto(link);
    await ready(other);
    const linked = await notesTab(other);
    await linked.getByText('where it forgot the goal').waitFor({ timeout: 15000 });
    await linked.getByText(/1 note added from the link/).waitFor();
    await other.reload();
    await ready(other);
    await (await notesTab(other)).getByText('where it forgot the goal').waitFor();
    assert.equal(await (await notesTab(other)).locator('.note-row').count(), 1, 'a reload of the link adds the note once');
    await fresh.close();
    assert.deepEqual(errors, []);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Export → HTML: the file opens from disk with the note.
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByRole('button', { name: 'Self-contained HTML…' }).click();
    await page.getByText(/Include my 1 note/).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download HTML' }).click({ timeout: 30000 })]);
    const file = path.join(tmp, 'demo-session.html');
    await download.saveAs(file);
    allowOrigin(`file://${tmp}`);
    const disk = await context.newPage();
    await disk.goto(`file://${file}`);
    await ready(disk);
    await (await notesTab(disk)).getByText('where it forgot the goal').waitFor({ timeout: 15000 });
    await shot('notes-from-html');
    await disk.close();

    // The sidecar: saved from the Notes tab, dropped (picked) with its log in another browser.
    const panel = await notesTab(page);
    const [saved] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Save notes file' }).click()]);
    assert.equal(saved.suggestedFilename(), 'demo-session.jsonl.notes.json');
    const sidecar = fs.readFileSync((await saved.path())!, 'utf8');
    const read = readNotesFile(sidecar);
    assert.deepEqual(read.problems, []);
    assert.equal(read.log?.name, 'demo-session.jsonl');
    assert.deepEqual(read.notes.map((n) => [n.seq, n.text]), [[40, 'where it forgot the goal']]);
    const third = await context.browser()!.newContext();
    const p3 = await third.newPage();
    await p3.goto(baseUrl);
    await ready(p3);
    await p3.getByLabel('Open log').setInputFiles([
      { name: 'demo-session.jsonl', mimeType: 'application/x-ndjson', buffer: demoText() },
      { name: 'demo-session.jsonl.notes.json', mimeType: 'application/json', buffer: Buffer.from(sidecar) },
    ]);
    await (await notesTab(p3)).getByText('where it forgot the goal').waitFor({ timeout: 15000 });
    await third.close();
  },

  async 'palette: Ctrl+K finds "replace" and Enter runs it; Ctrl+Shift+P goes to a seq; #cmd= runs a command once; ? lists the same table'({ page, baseUrl, shot }) {
    await watchCsp(page);
    await page.goto(baseUrl);
    await ready(page);
    await press(page, 'Home');
    await press(page, '.');
    await page.waitForFunction(`!/^seq 0 /.test(document.querySelector('[aria-label="Cursor position"]').textContent)`);
    const firstReplace = await seqOf(page);
    await press(page, 'Home');
    await cursorAt(page, 0);
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox', { name: 'Command' }).fill('replace');
    const options = palette.getByRole('option');
    await options.first().waitFor();
    const ids = await options.evaluateAll((els) => els.map((e) => e.getAttribute('data-command')));
    assert.ok(ids.includes('next-replace') && ids.includes('prev-replace'), `found ${ids.join(', ')}`);
    // The active row is the first; ↓ moves it: choose next-replace wherever it ranks.
    for (let i = 0; i < ids.indexOf('next-replace'); i++) await page.keyboard.press('ArrowDown');
    assert.equal(await palette.locator('[role=option][aria-selected=true]').getAttribute('data-command'), 'next-replace');
    assert.match(await palette.locator('[data-command="next-replace"]').innerText(), /\./, 'its key is shown');
    await shot('palette');
    await page.keyboard.press('Enter');
    await palette.waitFor({ state: 'detached' });
    await cursorAt(page, firstReplace);

    await page.keyboard.press('Control+Shift+P');
    await palette.getByRole('combobox', { name: 'Command' }).fill('seq 5');
    await page.keyboard.press('Enter');
    await cursorAt(page, 5);

    // A link naming a command runs it once its log is open, then leaves the address.
    await page.goto(`${baseUrl}#cmd=next-replace`);
    await ready(page);
    await cursorAt(page, firstReplace);
    await page.waitForFunction(`!location.hash.includes('cmd=')`);
    await page.goto(`${baseUrl}#cmd=no-such-command`);
    await ready(page);
    await page.getByLabel('Command status').getByText(/no command “no-such-command”/).waitFor();

    await press(page, '?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    for (const id of ['next-replace', 'next-note', 'add-note', 'palette']) assert.equal(await help.locator(`[data-command="${id}"]`).count(), 1, `? lists ${id}`);
    await shot('shortcuts');
    await assertCspIntact(page);
  },
};
