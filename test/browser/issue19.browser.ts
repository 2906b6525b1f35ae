// Issue #19 in the built app on real logs: on one with streams and a compaction
// a stream is one row that expands to its chunks; on one whose tool results list
// files, a search finds a word that only a tool result holds, lands on it and marks it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { readLogText } from '../../src/core/log/reader.ts';
import type { LogEvent } from '../../src/core/log/types.ts';
import { openFile, ready } from './helpers.ts';

type Case = (ctx: { page: Page; baseUrl: string; shot: (name: string) => Promise<unknown> }) => Promise<void>;

const strings = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.flatMap(strings) : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : []);

/** Polls `read` until `ok` (the page's CSP forbids waitForFunction's eval). */
async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  let v = await read();
  for (const end = Date.now() + ms; !ok(v) && Date.now() < end;) { await new Promise((r) => setTimeout(r, 50)); v = await read(); }
  assert.ok(ok(v), `${what}: got ${JSON.stringify(v)}`);
  return v;
}

export function issue19CorpusTests(dir: string): Record<string, Case> {
  return {
    async 'issue 19: a stream is one row that expands to its chunks; a search finds a word only a tool result holds and marks it'({ page, baseUrl, shot }) {
      const name = 'headless-compaction-recovery.jsonl';
      const buffer = fs.readFileSync(path.join(dir, name));
      const events = readLogText(buffer.toString('utf8')).events;
      await page.goto(baseUrl);
      await ready(page);
      await openFile(page, name, buffer);
      const grid = page.getByRole('region', { name: 'Events' }).getByRole('grid');
      const rows = async () => Number(await grid.getAttribute('aria-rowcount'));
      const folded = await rows();
      assert.ok(folded < events.length + 1, 'streams are folded');
      const stream = grid.getByRole('row', { name: /^stream of \d+ chunks/ }).first();
      const size = Number(/^stream of (\d+)/.exec((await stream.getAttribute('aria-label'))!)![1]);
      await stream.getByRole('button', { name: 'Show the chunks' }).click();
      await until('the stream opens', rows, (n) => n === folded + size);
      await shot('issue19-stream-open');

      // The search: on a log whose tool results hold file listings (words no other event says).
      const other = 'acp-fs-glob-sampling.jsonl';
      const otherBuffer = fs.readFileSync(path.join(dir, other));
      const logged = readLogText(otherBuffer.toString('utf8')).events;
      await openFile(page, other, otherBuffer);
      const said = (e: LogEvent) => strings(e.data).join('\n').toLowerCase();
      // A word of the results' text, not of a block's type name (every result block says "tool-result").
      const word = logged.filter((e) => e.type === 'tool/result').flatMap((e) => strings(e.data.message.content).join(' ').match(/[A-Za-z]{5,}/g) ?? [])
        .find((w) => !'tool-result'.includes(w.toLowerCase()) && logged.filter((e) => said(e).includes(w.toLowerCase())).every((e) => e.type === 'tool/result'));
      assert.ok(word, 'a word only a tool result holds');
      const hits = logged.flatMap((e, i) => (e.type === 'tool/result' && said(e).includes(word!.toLowerCase()) ? [i] : []));
      const search = page.getByRole('textbox', { name: 'Find events' });
      await search.fill(word!);
      await search.press('Enter');
      const slider = page.getByRole('slider', { name: 'Replay cursor' });
      await until('the cursor on the result', async () => Number(await slider.inputValue()), (i) => hits.includes(i));
      await page.getByRole('region', { name: 'Events' }).getByText(new RegExp(`^1 of ${hits.length} match`)).waitFor();
      await page.getByRole('tab', { name: 'Event' }).click();
      const mark = page.getByRole('region', { name: 'Details' }).locator('mark.search-mark').first();
      await mark.waitFor({ timeout: 10_000 });
      assert.equal((await mark.innerText()).toLowerCase(), word!.toLowerCase());
      await shot('issue19-search-hit');
    },
  };
}
