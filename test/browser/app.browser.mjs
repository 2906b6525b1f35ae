// Browser test cases: each gets a fresh page; the runner fails a case on any
// console error or request to another origin.
import assert from 'node:assert/strict';
import fs from 'node:fs';

const ready = async (page) => {
  await page.getByRole('grid').locator('[role=row]').first().waitFor({ timeout: 20000 });
};

/**
 * Whether the cursor's event row is in the events grid's view and, once the
 * surface panel shows the cursor, the node it appended or replaced is in the
 * surface list's view; polled, since the lists follow a step a frame later.
 */
const CURSOR_IN_VIEW = `(() => {
  const inside = (el, box) => { const r = el.getBoundingClientRect(); const b = box.getBoundingClientRect(); return r.top >= b.top - 1 && r.bottom <= b.bottom + 1; };
  const grid = document.querySelector('[role=grid]');
  const row = grid && grid.querySelector('.at-cursor');
  const seq = (document.querySelector('[aria-label="Cursor position"]')?.textContent ?? '').match(/seq (\\d+)/)?.[1];
  const change = document.querySelector('.cursor-change')?.textContent ?? '';
  const shown = change.match(/^at seq (\\d+): (\\w+)/);
  if (!row || !inside(row, grid)) return 'the cursor row is not in the events list view';
  if (!shown || shown[1] !== seq) return 'the surface panel does not show the cursor yet';
  if (shown[2] !== 'append' && shown[2] !== 'replace') return 'ok';
  const list = document.querySelector('[aria-label="Surface nodes"]');
  const node = list && list.querySelector('[aria-label^="seq ' + seq + ' "]');
  if (node && inside(node, list)) return 'ok';
  const r = node && node.getBoundingClientRect(); const b = list && list.getBoundingClientRect();
  return 'the node at seq ' + seq + ' is not in the surface list view' + (r ? ' (node ' + Math.round(r.top) + '..' + Math.round(r.bottom) + ', list ' + Math.round(b.top) + '..' + Math.round(b.bottom) + ')' : ' (not drawn)');
})()`;

async function cursorInView(page) {
  let last = '';
  for (const until = Date.now() + 5000; Date.now() < until;) {
    last = await page.evaluate(CURSOR_IN_VIEW);
    if (last === 'ok') return;
    await page.waitForTimeout(30);
  }
  throw new Error(`after the step, ${last}`);
}

export const browserTests = {
  async 'the demo log loads from a sub-path under the CSP, with a demo note'({ page, baseUrl, shot }) {
    await page.goto(baseUrl);
    await ready(page);
    await page.getByRole('note').filter({ hasText: 'Demo log' }).waitFor();
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    assert.match(csp, /script-src 'self'/);
    const gens = await page.getByLabel('Generations').innerText();
    assert.match(gens, /replaceGeneration [1-9]/, 'the demo log ends after a compaction');
    await page.locator('.replace-span').first().waitFor();
    // The demo is a workspace: the session and a subagent forked from it.
    await page.getByLabel('Session').selectOption({ label: '  demo-session-subagent.jsonl (subagent)' });
    await page.locator('.session-name', { hasText: 'demo-session-subagent.jsonl' }).waitFor({ timeout: 20000 });
    await page.getByRole('button', { name: '↑ parent session' }).waitFor();
    await page.getByRole('note').filter({ hasText: 'Demo log' }).waitFor();
    await shot('demo-loaded');
  },

  async 'a picked log file is read and shown, and the scrubber steps with the keyboard'({ page, baseUrl, shot }) {
    await page.goto(baseUrl);
    await ready(page);
    const log = fs.readFileSync('public/demo/demo-session-v4.jsonl');
    await page.getByLabel('Open log').setInputFiles({ name: 'mine.jsonl', mimeType: 'application/x-ndjson', buffer: log });
    await page.getByText('mine.jsonl · v4').waitFor({ timeout: 20000 });
    await page.keyboard.press('Home');
    await page.getByLabel('Cursor position').getByText(/^seq 0 /).waitFor();
    await page.keyboard.press('Shift+L'); // next turn
    await page.getByLabel('Cursor position').getByText(/turn\/start/).waitFor();
    await page.keyboard.press('l'); // next step
    await page.getByLabel('Cursor position').getByText(/step\/start/).waitFor();
    await shot('v4-stepped');
  },

  async 'stepping keeps the cursor event row and its surface node in view'({ page, baseUrl, shot }) {
    await page.goto(baseUrl);
    await ready(page);
    await page.locator('.cursor-change').waitFor();
    await page.locator('body').click({ position: { x: 5, y: 5 } }).catch(() => {});
    await page.keyboard.press('Home');
    // Forward through the surface changes, past the first screen of both lists; then the end, and back.
    for (let k = 1; k <= 60; k++) {
      await page.keyboard.press('Shift+ArrowRight');
      if (k % 6 === 0) await cursorInView(page);
    }
    await page.keyboard.press('End');
    await cursorInView(page);
    for (let k = 1; k <= 30; k++) {
      await page.keyboard.press('Shift+ArrowLeft');
      if (k % 6 === 0) await cursorInView(page);
    }
    await shot('stepped-in-view');
  },

  async 'a list scrolled away from the cursor by hand stays where it was put'({ page, baseUrl }) {
    await page.goto(baseUrl);
    await ready(page);
    await page.locator('.cursor-change').waitFor();
    await page.locator('body').click({ position: { x: 5, y: 5 } }).catch(() => {});
    await page.keyboard.press('End');
    await cursorInView(page);
    // The user scrolls both lists to the top; rows drawn there are measured, and nothing pulls the lists back.
    const TOP = `(() => { for (const el of [document.querySelector('[aria-label="Surface nodes"]'), document.querySelector('[role=grid]')]) el.scrollTop = 0; })()`;
    const OFFSETS = `[document.querySelector('[aria-label="Surface nodes"]').scrollTop, document.querySelector('[role=grid]').scrollTop]`;
    await page.evaluate(TOP);
    await page.waitForTimeout(300);
    await page.evaluate(TOP);
    await page.waitForTimeout(1200);
    assert.deepEqual(await page.evaluate(OFFSETS), [0, 0]);
  },

  async 'a non-log file gives a clear message and keeps the open log'({ page, baseUrl }) {
    await page.goto(baseUrl);
    await ready(page);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 600 }, (_, i) => i % 7)]);
    await page.getByLabel('Open log').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: png });
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 20000 });
    assert.match(await alert.innerText(), /photo\.png.*does not look like a JSONL log/s);
    assert.match(await page.locator('.session-name').innerText(), /demo-session\.jsonl/);
  },

  async 'an empty file gives a clear message and keeps the open log'({ page, baseUrl }) {
    await page.goto(baseUrl);
    await ready(page);
    await page.getByLabel('Open log').setInputFiles({ name: 'empty.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.alloc(0) });
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 20000 });
    assert.match(await alert.innerText(), /empty\.jsonl.*empty/s);
    assert.match(await page.locator('.session-name').innerText(), /demo-session\.jsonl/);
  },

  async 'the link carries the cursor and tab, and restores them in a new page'({ page, baseUrl }) {
    await page.goto(`${baseUrl}#c=40&tab=diagnostics`);
    await ready(page);
    await page.getByLabel('Cursor position').getByText(/41\//).waitFor();
    await page.getByRole('tab', { name: /Diagnostics/ }).and(page.locator('[aria-selected=true]')).waitFor();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => location.hash.includes('c=41'));
    assert.doesNotMatch(page.url(), /content|text=/);
  },

  async 'log text with HTML and script payloads renders as text only'({ page, baseUrl }) {
    await page.goto(baseUrl);
    await ready(page);
    const evil = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    const header = { type: 'session', version: 0, id: 'xss', createdAt: 1, cwd: '/w', delegationDepth: 0 };
    const rows = [
      { type: 'turn/start', seq: 0, time: 1, data: { turn: 1 } },
      { type: 'user/message', seq: 1, time: 2, data: { id: 'u', role: 'user', content: [{ type: 'text', text: evil }], source: { kind: 'user' } }, surfaceOp: 'append' },
      { type: 'turn/end', seq: 2, time: 3, data: { turn: 1, reason: { kind: 'completed' } } },
    ];
    const text = [header, ...rows].map((r) => JSON.stringify(r)).join('\n') + '\n';
    await page.getByRole('button', { name: 'Paste' }).click();
    await page.getByRole('textbox', { name: 'Log text' }).fill(text);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByText('pasted log · v0').waitFor({ timeout: 20000 });
    await page.locator('.node .preview', { hasText: '<img src=x' }).first().waitFor();
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await page.locator('img[src=x]').count(), 0);
  },

  async 'projections, prompt and requests panels show the state at the cursor'({ page, baseUrl, shot }) {
    await page.goto(baseUrl);
    await ready(page);
    await page.getByRole('tab', { name: 'Projections' }).click();
    await page.getByRole('article', { name: 'Projection todos' }).waitFor();
    assert.match(await page.getByRole('article', { name: 'Projection title' }).innerText(), /watermark \d+/);
    await shot('projections');
    await page.getByRole('tab', { name: 'Prompt' }).click();
    await page.getByText('Effective system prompt').waitFor();
    await page.getByLabel('Runtime-context diff').waitFor();
    await shot('prompt');
    await page.getByRole('tab', { name: 'Requests' }).click();
    const rows = page.locator('.requests-table tbody tr');
    await rows.first().waitFor();
    assert.ok((await rows.count()) > 10, 'the demo log has many model calls');
    await page.locator('.request-detail').getByText(/Call \d+/).waitFor();
    // The call's messages are derived in the worker when asked for and must survive the message to the page.
    await page.locator('.request-detail .request-messages .msg').first().waitFor();
    await shot('requests');
  },

  async '?url= opens a published log; it is never cached, and the app works offline after a visit'({ page, context, baseUrl, origin }) {
    await page.goto(`${baseUrl}?url=${encodeURIComponent(`${origin}/artifacts/secret-session.jsonl`)}`);
    await page.getByText('secret-session.jsonl · v4').waitFor({ timeout: 20000 });
    await page.waitForFunction(() => navigator.serviceWorker?.controller !== null || navigator.serviceWorker.ready, null, { timeout: 10000 });
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await ready(page);
    const cached = await page.evaluate(async () => {
      const urls = [];
      for (const key of await caches.keys()) for (const req of await (await caches.open(key)).keys()) urls.push(req.url);
      return urls;
    });
    assert.ok(cached.some((u) => u.includes('/assets/')), 'the app shell is cached');
    assert.ok(!cached.some((u) => u.includes('secret-session')), `a user log was cached: ${cached.join(', ')}`);
    await context.setOffline(true);
    await page.goto(baseUrl);
    await ready(page);
    await context.setOffline(false);
  },

  async 'several files open as one workspace; a child links to its parent'({ page, baseUrl, shot }) {
    await page.goto(baseUrl);
    await ready(page);
    const parentText = fs.readFileSync('public/demo/demo-session-v4.jsonl', 'utf8');
    const parentId = JSON.parse(parentText.split('\n')[0]).id;
    const child = [
      { type: 'session', version: 4, id: 'child-1', createdAt: 5, isSeeded: false, delegationDepth: 1, cwd: '/w', parentSession: parentId, origin: 'subagent' },
      { type: 'turn/start', seq: 0, time: 1, data: { turn: 1 } },
      { type: 'user/message', seq: 1, time: 2, data: { id: 'c1', role: 'user', content: [{ type: 'text', text: 'child task' }], source: { kind: 'user' } }, surfaceOp: 'append' },
      { type: 'turn/end', seq: 2, time: 3, data: { turn: 1, reason: { kind: 'completed' } } },
    ].map((r) => JSON.stringify(r)).join('\n') + '\n';
    await page.getByLabel('Open log').setInputFiles([
      { name: 'child.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(child) },
      { name: 'parent.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(parentText) },
    ]);
    await page.getByText('parent.jsonl · v4').waitFor({ timeout: 20000 });
    await page.getByLabel('Session').selectOption({ label: '  child.jsonl (subagent)' });
    await page.getByText('child.jsonl · v4').waitFor({ timeout: 20000 });
    await shot('workspace-child');
    await page.getByRole('button', { name: '↑ parent session' }).click();
    await page.getByText('parent.jsonl · v4').waitFor({ timeout: 20000 });
  },
};
