import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eventsPanelMatcher, searchLog } from '../../src/core/folder/search.ts';
import { bruteSearch, loadedForSearch, queriesFrom } from '../helpers/search-oracle.ts';
import { corpusLogs } from './corpus-dir.ts';

// The whole-log search rules lines out by their raw text before parsing them
// (src/core/search/line-prefilter.ts); on real DSH logs it must find exactly
// what a scan that parses every event finds, for words cut from every text
// the events show or hold.
describe('whole-log search on the corpus', () => {
  for (const log of corpusLogs()) {
    it(`${log.name}: the filtered scan equals the full one`, async () => {
      const { engine, events } = await loadedForSearch(fs.readFileSync(log.file, 'utf8'));
      for (const q of queriesFrom(events, log.name.length, 90)) {
        const r = await engine.searchAll(q, () => {});
        expect([...r.matches], q).toEqual(bruteSearch(events, q));
      }
    });
  }
});

// A folder search rules lines out before parsing them too, not knowing their types
// (anyTypeLineFilter): on every real log it finds what parsing every line finds.
describe('folder search on the corpus', () => {
  for (const log of corpusLogs()) {
    it(`${log.name}: the filtered scan equals the full one`, async () => {
      const bytes = new Uint8Array(fs.readFileSync(log.file));
      const { events } = await loadedForSearch(new TextDecoder().decode(bytes));
      for (const q of queriesFrom(events, log.name.length + 1, 60)) {
        const matcher = eventsPanelMatcher({ text: q.replace(/^"|"$/g, '') });
        const filtered = await searchLog([bytes], matcher, { limit: 1e9 });
        const parsedAll = await searchLog([bytes], { ...matcher, mayMatchLine: null }, { limit: 1e9 });
        expect(filtered.hits, q).toEqual(parsedAll.hits);
      }
    });
  }
});
