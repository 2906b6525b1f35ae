import { describe, expect, it, vi } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import type { LogEvent } from '../../src/core/log/types.ts';
import { isCheckableWord, JOINING, linePrefilter, mayPrintNumbersOtherwise, type LinePrefilter } from '../../src/core/search/line-prefilter.ts';
import { SOURCE_LABEL_TRIGGERS } from '../../src/core/messages/source-kinds.ts';
import { PACKED_DELTA_TYPES } from '../../src/core/log/packed-rows.ts';
import { eventPreview, previewVocabulary } from '../../src/core/replay/preview.ts';
import { noteCall, parseQuery } from '../../src/core/search/query.ts';
import { LineScreen } from '../../src/core/search/line-screen.ts';
import { NotedCalls } from '../../src/core/search/noted-calls.ts';
import { toolLineCheck } from '../../src/core/search/tool-lines.ts';
import { bruteSearch, loadedForSearch, queriesFrom, stringsOf } from '../helpers/search-oracle.ts';
import { fastClock } from '../helpers/fast-clock.ts';

/** Events whose previews print labels, numbers in another form, escapes and glued pieces: what the filter must not rule out. */
function trickyLog(): string {
  const lines = generateLog({ dialect: 'v4', seed: 3, turns: 1 }).text.trimEnd().split('\n');
  let seq = (JSON.parse(lines.at(-1)!) as LogEvent).seq;
  const add = (type: string, data: unknown, extra = '') => lines.push(`{"type":"${type}","seq":${++seq},"time":${1788062300000 + seq}${extra},"data":${typeof data === 'string' ? data : JSON.stringify(data)}}`);
  add('tool/call', { turn: 1, step: 1, callId: 'c-x', name: 'Bash', arguments: { cmd: 'ls' } });
  add('user/message', { id: 'm-1', role: 'user', content: [{ type: 'image', offloaded: true }, { type: 'image' }, { type: 'tool-call', id: 'c-y', name: 'Grep', arguments: '{"q":1}' }, { type: 'custom', toolName: 'Lint' }], source: { kind: 'user-question-reply', outcome: 'Answered', callId: 'q-1' } });
  add('user/message', { id: 'm-2', role: 'user', content: [{ type: 'text', text: 'via the wire' }], source: { kind: 'user', rpcId: 'rpc-77' } });
  add('user/message', { id: 'm-3', role: 'user', content: [{ type: 'text', text: 'from a plugin' }], source: { kind: 'plugin', plugin: 'Lintz', form: 'Nudge' } });
  add('user/message', { id: 'm-4', role: 'user', content: [{ type: 'text', text: 'cwd moved' }], source: { kind: 'working-directory' } });
  add('turn/end', { turn: ['Ω', 'ΟΔΟΣ'], reason: { kind: 'Failed' } });
  add('turn/start', { turn: { n: 2 } });
  add('step/start', { turn: true, step: null });
  add('todo/write', { todos: [{ content: 'x' }, { content: 'y' }, { content: 'z' }] });
  add('working-directory/change', { cwd: { path: '/srv/Deploy' } });
  add('session/title', { title: 4.5e21 });
  add('request/header', { reason: 'Retry', header: { config: { provider: 'acme', model: 'M-1' } } });
  add('assistant/chunk', { turn: 1, step: 1, chunk: { type: 'text-delta', index: 0, text: 'line one\n\tline "two"' } });
  add('assistant/chunk', { turn: 1, step: 1, chunk: { type: 'finish', reason: { kind: 'error' } } });
  add('x/custom', '{"n": 1.0, "big": 1e3, "neg": -0, "huge": 1e400, "greek": "ΟΔΟΣ ΣΑ"}');
  add('x/custom', '{"s": "caf\\u00e9 \\/path"}');
  add('working-directory/change', {});
  add('tool/call', { turn: 1, step: 1, callId: 'c-z', name: -1e999, arguments: null });
  add('constructor', { note: 'Object-named type' });
  add('user/message', { id: 'm-5', role: 'user', content: [{ type: 'text', text: 'odd kind' }], source: { kind: 'constructor' } });
  add('x/custom', { s: 'Straße İstanbul \u212a-kelvin', deep: [[{ a: 'Inner' }], 7] });
  add('plugin:acme/note', { note: 'Plug In Text', n: 12 }, ',"ignorable":true');
  add('tool/result', { turn: 1, step: 1, message: { role: 'tool', toolCallId: 'c-x', content: [{ type: 'text', text: 'exit  code\n1', isError: true }] } });
  // A result before its call, and a call id used again for another tool: each result names the tool as noted by then.
  add('tool/result', { turn: 1, step: 1, message: { role: 'tool', toolCallId: 'c-late', content: [{ type: 'text', text: 'too early' }] } });
  add('tool/call', { turn: 1, step: 1, callId: 'c-late', name: 'Late' });
  add('tool/result', { turn: 1, step: 1, message: { role: 'tool', toolCallId: 'c-late', content: [{ type: 'text', text: 'in time' }] } });
  add('tool/call', { turn: 1, step: 1, callId: 'c-x', name: 'Grep' });
  add('tool/result', { turn: 1, step: 1, message: { role: 'tool', toolCallId: 'c-x', content: [{ type: 'text', text: 'exit code 2' }] } });
  return lines.join('\n') + '\n';
}

const PACKED_TEXT = Object.values(PACKED_DELTA_TYPES).join('\n');

const logs: [string, string][] = [
  ['format 0 (packed rows, compactions)', generateLog({ dialect: 'v0', seed: 7, turns: 4, compactEvery: 2 }).text],
  ['format 4', generateLog({ dialect: 'v4', seed: 11, turns: 3 }).text],
  ['DSH 0.2.1 shape', generateLog({ dialect: 'v4', dsh021: true, seed: 5, turns: 3 }).text],
  ['tricky previews', trickyLog()],
];

/** Whether a line of this text lets an event of type `typeId` through. */
const passes = (f: LinePrefilter, line: string, typeId: number, packed = false) => f.admits(f.lineBits(line, packed), typeId);

/** A query's filter over these types, and whether each line lets an event of its type through. */
function expectLines(query: string, types: string[], cases: [line: string, typeId: number, passed: boolean][]): void {
  const f = linePrefilter(parseQuery(query), types)!;
  for (const [line, typeId, passed] of cases) expect(passes(f, line, typeId), line).toBe(passed);
}

describe('a whole-log search rules lines out by their raw text (issue #15)', () => {
  for (const [name, text] of logs) {
    it(`finds what the unfiltered scan finds, for words cut from every kind of text: ${name}`, async () => {
      const { engine, events } = await loadedForSearch(text);
      for (const q of queriesFrom(events, name.length, 260)) {
        const r = await engine.searchAll(q, () => {});
        expect([...r.matches], q).toEqual(bruteSearch(events, q));
      }
    }, 60_000);
  }

  it('a block of lines lets through whatever each of its lines lets through', async () => {
    for (const [name, text] of logs) {
      const { events } = await loadedForSearch(text);
      const typeNames = [...new Set(Array.from({ length: events.length }, (_, i) => events.peek(i)!.type))];
      for (const q of queriesFrom(events, name.length + 1, 80)) {
        const f = linePrefilter(parseQuery(q), typeNames);
        if (!f) continue;
        for (const blockBytes of [300, 4096]) {
          for (let i = 0; i < events.length;) {
            const block = events.rawLines(i, blockBytes);
            if (!block) { i++; continue; }
            const bits = f.blockBits(block.text, block.packed);
            for (let j = i; j < block.to;) {
              const line = events.rawLines(j)!;
              const held = f.lineBits(line.text, line.packed);
              // Whatever a line lets through, its block lets through, for every type.
              for (let t = 0; t < typeNames.length; t++) if (f.admits(held, t)) expect(f.admits(bits, t), `${q} in the line of event ${j} (${typeNames[t]}), a block from ${i}`).toBe(true);
              j = line.to;
            }
            i = block.to;
          }
        }
      }
    }
  }, 60_000);

  it('reads a log\'s lines back as written, a block at a time, and gives none for a line the reader changed', async () => {
    const text = generateLog({ dialect: 'v0', seed: 7, turns: 3 }).text;
    const written = text.split('\n').slice(1).filter((l) => l !== '');
    const { events } = await loadedForSearch(text);
    for (const blockBytes of [0, 500, 64 * 1024]) {
      const seen: string[] = [];
      let i = 0;
      for (let raw; i < events.length && (raw = events.rawLines(i, blockBytes)); i = raw.to) {
        expect(raw.to).toBeGreaterThan(i);
        expect(raw.text.length <= blockBytes || !raw.text.includes('\n'), `a block past ${blockBytes} bytes holds one line`).toBe(true);
        expect(raw.packed).toBe(raw.text.split('\n').some((l) => /"type":"[a-z-]+-chunks"/.test(l)));
        seen.push(...raw.text.split('\n'));
      }
      // Up to the restore's closing event (not in the file): every line, in order.
      expect(seen, `blocks of ${blockBytes} bytes`).toEqual(written);
      expect(i).toBe(events.length - 1);
      expect(events.rawLines(i)).toBeNull();
    }
    // A legacy row the reader numbers is kept as an object: its line is not what the event is.
    const numbered = text.split('\n').map((l, n) => (n === 3 ? l.replace(/"seq":\d+,/, '') : l)).join('\n');
    const { events: changed } = await loadedForSearch(numbered);
    const rows = Array.from({ length: changed.length }, (_, k) => k).filter((k) => changed.rawLines(k) === null);
    expect(rows.length).toBeGreaterThanOrEqual(1);
    const before = rows[0] - 1;
    expect(changed.rawLines(before, 64 * 1024)!.to).toBe(rows[0]);
  });

  it('every piece of a preview is in its line, a number, or a label of its type', async () => {
    const joinings = new RegExp(`${JOINING.source}+`, 'u');
    for (const [name, text] of logs) {
      const { events } = await loadedForSearch(text);
      for (let i = 0; i < events.length; i++) {
        const raw = events.rawLines(i);
        if (!raw || raw.text.includes('\\u') || raw.text.includes('\\/')) continue;
        const e = events.peek(i)!;
        const { labels, joins, sourceTagged } = previewVocabulary(e.type);
        const line = raw.text.toLowerCase();
        const labelText = [...labels, ...(sourceTagged ? SOURCE_LABEL_TRIGGERS.map(([label]) => label) : [])].join('\n').toLowerCase();
        for (const piece of eventPreview(e).toLowerCase().split(joinings)) {
          if (!piece || line.includes(piece) || labelText.includes(piece) || [...joins].some((c) => piece.includes(c)) || /[σς]/.test(piece)) continue;
          // A number in another form than its token's, or one the preview counts.
          if (/^[0-9.e+-]+$/.test(piece) && (mayPrintNumbersOtherwise(raw.text) || previewVocabulary(e.type).counts)) continue;
          if (raw.packed && PACKED_TEXT.includes(piece)) continue;
          if (/infinity|null/.test(piece) && /\d{200}|e\+?\d{3}/i.test(raw.text)) continue;
          throw new Error(`${name}: event ${i} (${e.type}) shows "${piece}", which its line does not hold: ${eventPreview(e)}`);
        }
      }
    }
  });

  it('the screen admits every event that matches, whatever its block size', async () => {
    for (const [name, text] of logs) {
      const { events } = await loadedForSearch(text);
      const typeNames = [...new Set(Array.from({ length: events.length }, (_, i) => events.peek(i)!.type))];
      const typeIds = Array.from({ length: events.length }, (_, i) => typeNames.indexOf(events.peek(i)!.type));
      // The call names as the load notes them, placed here by event index.
      const calls = new NotedCalls();
      for (let i = 0; i < events.length; i++) calls.note(i, events.peek(i)!);
      for (const q of [...queriesFrom(events, name.length + 2, 60), 'tool:read_file', 'tool:bash exit', 'tool:grep error', 'tool:bash', 'tool:late', 'tool:grep']) {
        const query = parseQuery(q);
        const f = linePrefilter(query, typeNames);
        const tool = query.tool !== undefined ? toolLineCheck(query.tool) : null;
        if (!f && !tool) continue;
        const matching = new Set(bruteSearch(events, q));
        for (const blockBytes of [0, 300, 4096, 64 * 1024]) {
          const screen = new LineScreen(events, f, blockBytes, tool && { block: (t, at) => tool.block(t, calls.asOf(at)), line: (t, at) => tool.line(t, calls.asOf(at)) });
          for (let i = 0; i < events.length; i++) {
            const admitted = screen.admits(i, typeIds[i]);
            if (matching.has(i)) expect(admitted, `${q}: event ${i}, blocks of ${blockBytes} bytes`).toBe(true);
          }
        }
      }
    }
  }, 120_000);

  it('a case-insensitive search finds each character where its lower case is (every cased script; İ is the one exception)', () => {
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const twoChar: number[] = [];
    for (let cp = 0; cp < 0x1f000; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      const lower = c.toLowerCase();
      if ([...lower].length !== 1) { twoChar.push(cp); continue; }
      if (lower !== c && !new RegExp(escape(lower), 'iu').test(c)) throw new Error(`U+${cp.toString(16)} lower-cases to ${lower}, which a case-insensitive search does not find in it`);
    }
    expect(twoChar).toEqual([0x130]);
    const f = linePrefilter(parseQuery('xi kelvin'), ['x/custom'])!;
    expect(f.admits(f.blockBits('"XİK Kelvin"', false), 0)).toBe(true);
    expect(f.admits(f.blockBits('"x\u212aelvin xi"', false), 0)).toBe(true);
    expect(f.admits(f.blockBits('"XI \u212aELVIN"', false), 0)).toBe(true);
    expect(f.admits(f.blockBits('"XI KELVI"', false), 0)).toBe(false);
  });

  it('a scan that rules every line out still pauses, reports progress and stops when a newer search starts', async () => {
    const { engine } = await loadedForSearch(logs[0][1]);
    // The scan pauses at every check (every 256 events), as a long one would.
    using _clock = fastClock();
    const reports: number[] = [];
    const first = engine.searchAll('zzqqxx', (p) => reports.push(p.searched));
    const second = engine.searchAll('zzqqxx', (p) => reports.push(p.searched));
    await expect(first).rejects.toThrow('cancelled');
    expect((await second).count).toBe(0);
    expect(reports.length).toBeGreaterThan(2);
    expect(reports.every((n, k) => k === 0 || n >= reports[k - 1])).toBe(true);
  });

  it("the load notes each call's name at its event's index, as a Map filled in order would hold it there", async () => {
    for (const [name, text] of logs) {
      const { engine, events } = await loadedForSearch(text);
      const noted = (engine as unknown as { notedCalls: NotedCalls }).notedCalls;
      // Every id the log names, asked at every event (before its call too).
      const all = new Map<string, string>();
      for (let i = 0; i < events.length; i++) noteCall(events.peek(i)!, all);
      const ids = [...all.keys()];
      const inOrder = new Map<string, string>();
      for (let i = 0; i < events.length; i++) {
        noteCall(events.peek(i)!, inOrder);
        const asOf = noted.asOf(i);
        for (const id of ids) expect(asOf.get(id), `${name}: ${id} at event ${i}`).toBe(inOrder.get(id));
      }
      expect(ids.length, name).toBeGreaterThan(2);
    }
  });

  it('a tool: search reads the calls the load noted: it parses only lines that name the tool or such a call, and finds what a full scan finds', async () => {
    const { engine, events } = await loadedForSearch(logs[3][1]);
    const peek = vi.spyOn(events, 'peek');
    for (const q of ['tool:late', 'tool:late early', 'tool:grep exit', 'tool:bash exit', 'tool:late zzqqxx', 'tool:grep']) {
      peek.mockClear();
      const r = await engine.searchAll(q, () => {});
      expect(peek.mock.calls.length, q).toBeLessThan(events.length / 4);
      expect([...r.matches], q).toEqual(bruteSearch(events, q));
    }
    // The call and the result after it; not the result logged before its call.
    const late = bruteSearch(events, 'tool:late').map((i) => events.peek(i)!.type);
    expect(late).toEqual(['tool/call', 'tool/result']);
    expect(bruteSearch(events, 'tool:grep exit')).toHaveLength(1);
  });

  it('parses no line a word rules out: only the lines that hold it', async () => {
    const { engine, events } = await loadedForSearch(logs[1][1]);
    // Parsed anyway: events the file does not hold as written (the restore's closing event here).
    const unwritten = Array.from({ length: events.length }, (_, i) => i).filter((i) => events.rawLines(i) === null);
    expect(unwritten.length).toBeLessThan(events.length / 20);
    const said = events.peek(Array.from({ length: events.length }, (_, i) => i).find((i) => events.peek(i)!.type === 'tool/result')!)!;
    const word = stringsOf(said.data).join(' ').match(/[A-Za-z]{7,}/)![0].toLowerCase();
    const peek = vi.spyOn(events, 'peek');
    expect((await engine.searchAll('zzqqxx', () => {})).count).toBe(0);
    expect(peek.mock.calls.map((c) => c[0])).toEqual(unwritten);
    peek.mockClear();
    const r = await engine.searchAll(word, () => {});
    expect(r.count).toBeGreaterThan(0);
    const holding = Array.from({ length: events.length }, (_, i) => i).filter((i) => unwritten.includes(i) || events.rawLines(i)!.text.toLowerCase().includes(word));
    expect(peek.mock.calls.map((c) => c[0])).toEqual(holding);
    expect(holding.length).toBeLessThan(events.length / 2);
  });

  it('checks a word only where a line must hold it', () => {
    for (const w of ['loadconfig', 'exit', 'café', 'k-kelvin', 'src/app.ts', 'turn', 'compaction', 'undefined', '12', '1.5e+3', '-0']) expect(isCheckableWord(w), w).toBe(true);
    // Whitespace, punctuation a preview joins pieces with, JSON escapes, a sigma.
    for (const w of ['a b', 'bash(', 'a:b', 'x,y', '"q', 'a\\n', 'ΟΔΟΣ'.toLowerCase(), '']) expect(isCheckableWord(w), w).toBe(false);
  });

  it('a label is admitted by the types whose previews print it, a source label by what adds it to the line', () => {
    const types = ['turn/start', 'tool/result', 'x/custom', 'request/header'];
    const turn = linePrefilter(parseQuery('urn'), types)!;
    expect(passes(turn, '{"data":{"t":1}}', 0)).toBe(true);
    expect(passes(turn, '{"data":{"t":1}}', 2)).toBe(false);
    const compaction = linePrefilter(parseQuery('compaction'), types)!;
    const tagged = compaction.lineBits('{"source":{"kind":"compact-checkpoint"}}', false);
    expect(compaction.admits(tagged, 1)).toBe(true);
    expect(compaction.admits(tagged, 2)).toBe(false);
    expect(passes(compaction, '{"source":{"kind":"user"}}', 1)).toBe(false);
    // A request header's preview joins provider and model with a slash.
    const slash = linePrefilter(parseQuery('acme/m-1'), types)!;
    expect(passes(slash, '{"provider":"acme","model":"m-1"}', 3)).toBe(true);
    expect(passes(slash, '{"provider":"acme","model":"m-1"}', 2)).toBe(false);
  });

  it('a line with a \\u or \\/ escape always passes; a packed row holds its members\' chunk type', () => {
    const f = linePrefilter(parseQuery('café delta'), ['x/custom', 'assistant/chunk'])!;
    const cases: [line: string, typeId: number, packed: boolean, passed: boolean][] = [
      ['{"s":"caf\\u00e9 delta"}', 0, false, true],
      ['{"s":"a\\/b café delta"}', 0, false, true],
      ['{"s":"Café Delta"}', 0, false, true],
      ['{"s":"café"}', 0, false, false],
      ['{"s":"caf\\u00e9"}', 0, false, true],
      ['{"type":"text-chunks","data":{"texts":["Café"]}}', 1, true, true],
      ['{"type":"text-chunks","data":{"texts":["Café"]}}', 1, false, false],
    ];
    for (const [line, typeId, packed, passed] of cases) expect(passes(f, line, typeId, packed), line).toBe(passed);
    expect(linePrefilter(parseQuery('type:tool/call'), [])).toBeNull();
  });

  it('a number is looked for as written, unless the line holds one that may print otherwise or the type prints a count', () => {
    expectLines('100000', ['x/custom', 'todo/write'], [
      ['{"n":100000}', 0, true],
      ['{"n":1000000}', 0, true],
      ['{"n":100000.0}', 0, true],
      ['{"n":10000}', 0, false],
      ['{"s":"100 000"}', 0, false],
      // Printed as 100000 from another form.
      ['{"n":1e5}', 0, true],
      ['{"n": 1.0E+5}', 0, true],
      ['{"a":[1e5]}', 0, true],
      ['{"a":[0,\t1e5]}', 0, true],
      // Not a number token: an id or a hash in a string.
      ['{"id":"3e4f9","x":"v1.2e5"}', 0, false],
      ['{"n":99999.99999999999999}', 0, true],
      // A fraction String() prints with an exponent, a 16-digit integer it may round.
      ['{"n":0.0000001}', 0, true],
      ['{"n":-0.00000099}', 0, true],
      ['{"n":0.000001}', 0, false],
      ['{"n":1234567890123456}', 0, true],
      ['{"n":123456789012345}', 0, false],
      // todo/write prints how many todos it holds.
      ['{"todos":[]}', 1, true],
    ]);
    expect(String(99999.99999999999999)).toBe('100000');
    expect(String(0.0000001)).toBe('1e-7');
  });

  it("a role filter needs the role as a \"role\" value in the line, or a user/message for the user's", () => {
    const types = ['tool/result', 'user/message', 'x/custom'];
    const tool = linePrefilter(parseQuery('role:tool'), types)!;
    const user = linePrefilter(parseQuery('role:USER'), types)!;
    const cases: [f: LinePrefilter, line: string, typeId: number, passed: boolean][] = [
      [tool, '{"message":{"role":"tool","content":[]}}', 0, true],
      [tool, '{"message":{"role" : "Tool"}}', 0, true],
      [tool, '{"message":{"role":"assistant","content":[{"type":"tool-call"}]}}', 0, false],
      [tool, '{"message":{"role":"assistant"}}', 1, false],
      [user, '{"content":[{"type":"text","text":"hi"}]}', 1, true],
      [user, '{"message":{"role":"user"}}', 2, true],
      // "user" as another value (a source's kind) is no role.
      [user, '{"source":{"kind":"user"},"note":"users"}', 2, false],
      [tool, '{"message":{"role":"user","source":{"kind":"tool"}}}', 0, false],
      [user, '{"note":"users"}', 2, false],
    ];
    for (const [f, line, typeId, passed] of cases) expect(passes(f, line, typeId), line).toBe(passed);
    // A role JSON would write escaped is not looked for.
    expect(linePrefilter(parseQuery('role:"x'), types)).toBeNull();
  });

  it('the error filter needs an isError flag set, a reason kind error or failed, or an error-like type', () => {
    expectLines('error', ['tool/result', 'model/error'], [
      ['{"isError":true}', 0, true],
      ['{"reason":{"kind":"failed"}}', 0, true],
      ['{"ok":true}', 0, false],
      ['{"isError": false, "text":"error: failed"}', 0, false],
      ['{"isError" :\ttrue}', 0, true],
      ['{"ok":true}', 1, true],
    ]);
  });
});
