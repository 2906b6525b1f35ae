import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import type { LogEvent } from '../../src/core/log/types.ts';
import { parseQuery } from '../../src/core/search/query.ts';
import { bruteSearch, stringsOf } from '../helpers/search-oracle.ts';
import { Engine } from '../../src/worker/engine.ts';
import { splitMarked } from '../../src/ui/search/Marked.tsx';
import { fastClock } from '../helpers/fast-clock.ts';

const text = generateLog({ dialect: 'v0', seed: 7, turns: 4, compactEvery: 2 }).text;
const events = readLogText(text).events;

/** The same scan done the slow way: every event, in order, with its turn. */
const brute = (query: string) => bruteSearch(events, query);

describe('search in content (issue #19)', () => {
  it('parses words, quoted phrases and filters; an unknown key:value stays a word', () => {
    expect(parseQuery('Tool:bash  role:USER turn:3 error "exit code 1" foo:bar ParseDuration')).toEqual({
      words: ['exit code 1', 'foo:bar', 'parseduration'], tool: 'bash', role: 'user', turn: 3, error: true,
    });
    expect(parseQuery('type:tool/call').type).toBe('tool/call');
  });

  it('finds a word that only a tool result holds, and not in other events', () => {
    const said = (e: LogEvent) => stringsOf(e.data).join('\n').toLowerCase();
    const words = events.filter((e) => e.type === 'tool/result').flatMap((e) => stringsOf(e.data.message.content).join(' ').match(/[A-Za-z]{7,}/g) ?? []);
    const only = words.find((w) => events.filter((e) => said(e).includes(w.toLowerCase())).every((e) => e.type === 'tool/result'));
    expect(only).toBeTruthy();
    const hits = brute(only!);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((i) => events[i].type === 'tool/result')).toBe(true);
  });

  it('filters by type, family, tool (calls and the results that answer them), role and turn', () => {
    expect(brute('type:tool/call').every((i) => events[i].type === 'tool/call')).toBe(true);
    expect(brute('type:tool').every((i) => events[i].type.startsWith('tool/'))).toBe(true);
    const call = events.find((e) => e.type === 'tool/call')!;
    const byTool = brute(`tool:${call.data.name}`);
    expect(byTool.some((i) => events[i].type === 'tool/call')).toBe(true);
    expect(byTool.some((i) => events[i].type === 'tool/result')).toBe(true);
    expect(brute('role:user').every((i) => ['user', undefined].includes(events[i].data?.message?.role ?? (events[i].type === 'user/message' ? 'user' : undefined)))).toBe(true);
    const turn2 = brute('turn:2');
    expect(turn2.length).toBeGreaterThan(0);
    expect(turn2.every((i) => (events[i].data?.turn ?? 2) === 2)).toBe(true);
  });

  it('the worker\'s scan equals the slow one, counts every match, and a newer search cancels a running one', async () => {
    const engine = new Engine();
    await engine.load({ kind: 'text', text, name: 'g.jsonl' }, () => {});
    for (const q of ['parseDuration', 'type:tool/call', 'tool:read_file', 'turn:3 user', '"no such phrase here"']) {
      const r = await engine.searchAll(q, () => {});
      expect([...r.matches], q).toEqual(brute(q));
      expect(r.count).toBe(r.matches.length);
    }
  });

  it('a scan long enough to pause reports progress, and stops when a newer search starts or it is cancelled', async () => {
    const engine = new Engine();
    await engine.load({ kind: 'text', text: generateLog({ dialect: 'v0', seed: 8, turns: 120 }).text, name: 'big.jsonl' }, () => {});
    using _clock = fastClock();
    const reports: number[] = [];
    // Only numbers: no line can be ruled out by its text (a number may be written in another form), so every event is parsed.
    const first = engine.searchAll('"12 424242"', (p) => reports.push(p.searched));
    const second = engine.searchAll('parseDuration', () => {});
    await expect(first).rejects.toThrow('cancelled');
    expect((await second).count).toBeGreaterThan(0);
    const third = engine.searchAll('"12 424242"', (p) => reports.push(p.searched));
    engine.cancelSearch();
    await expect(third).rejects.toThrow('cancelled');
    const whole = await engine.searchAll('"12 424242"', (p) => reports.push(p.searched));
    expect(whole.count).toBe(0);
    expect(reports.length).toBeGreaterThan(0);
  }, 30_000);

  it('marks each word in a text as text parts (no markup)', () => {
    expect(splitMarked('Fix parseDuration in duration.ts', ['duration'])).toEqual([
      { text: 'Fix parse', hit: false }, { text: 'Duration', hit: true }, { text: ' in ', hit: false }, { text: 'duration', hit: true }, { text: '.ts', hit: false },
    ]);
    expect(splitMarked('<b>x</b>', ['b'])).toEqual([{ text: '<', hit: false }, { text: 'b', hit: true }, { text: '>x</', hit: false }, { text: 'b', hit: true }, { text: '>', hit: false }]);
  });
});
