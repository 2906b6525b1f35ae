import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readLog, readLogText } from '../../src/core/log/reader.ts';
import { inspect } from '../../src/core/inspect.ts';
import { assistantData, chunked, events, header, jsonl, userMessage } from '../helpers/log-builder.ts';
import { zstdFrames, zstdRawFrame } from '../helpers/zstd-frames.ts';

const codes = (r: { diagnostics: { code: string }[] }) => r.diagnostics.map((d) => d.code);
const enc = new TextEncoder();

const basicTurn = events(
  ['turn/start', { turn: 1 }],
  ['step/start', { turn: 1, step: 1 }],
  ['user/message', userMessage('u1', 'hello'), { surfaceOp: 'append' }],
  ['assistant/message', assistantData('a1', 'hi'), { surfaceOp: 'append', sourceEventSeqs: [] }],
  ['step/end', { turn: 1, step: 1 }],
  ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
);
const basicLog = jsonl([header(), ...basicTurn]);

describe('plain JSONL', () => {
  it('reads the header and every event in seq order without findings', () => {
    const r = readLogText(basicLog);
    expect(r.header?.id).toBe('test-session');
    expect(r.events.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(r.origins.map((o) => o.line)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(r.diagnostics).toEqual([]);
    expect(r.tornTail).toBeNull();
    expect(r.scan.physicalRows).toBe(7);
  });

  it('strips CRLF, skips blank lines and a BOM, and says so', () => {
    const text = '\ufeff' + jsonl([header(), ...basicTurn], { eol: '\r\n' }).replace('\r\n', '\r\n\r\n');
    const r = readLogText(text);
    expect(r.events).toHaveLength(6);
    expect(codes(r)).toEqual(expect.arrayContaining(['bytes.bom', 'bytes.crlf', 'bytes.blank-lines']));
    expect(r.diagnostics.every((d) => d.severity === 'info')).toBe(true);
  });

  it('counts logical events the way the CLI reports them', () => {
    const i = inspect(readLogText(basicLog));
    expect(i.eventCount).toBe(6);
    expect(i.lastSeq).toBe(5);
    expect(i.eventTypeCounts['user/message']).toBe(1);
    expect(i.tornTail).toBe(false);
  });
});

describe('header', () => {
  it('refuses a first line that is not a session header but still reads events', () => {
    const r = readLogText(jsonl(basicTurn));
    expect(r.header).toBeNull();
    expect(codes(r)).toContain('header.missing');
    expect(r.events).toHaveLength(6);
  });

  it('accepts every known format version and flags a newer one', () => {
    for (const version of [0, 1, 2, 3, 4]) {
      const extra = version >= 2 ? { version, isSeeded: false } : { version };
      const r = readLogText(jsonl([header(extra)]));
      expect(r.version).toBe(version);
      expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    }
    const newer = readLogText(jsonl([header({ version: 9, isSeeded: false })]));
    expect(codes(newer)).toContain('header.unsupported-version');
  });

  it('reads a header with no version as format 0 with a warning', () => {
    const h = header();
    delete h.version;
    const r = readLogText(jsonl([h, ...basicTurn]));
    expect(r.version).toBe(0);
    expect(r.dialect).toBe('v0');
    expect(codes(r)).toContain('header.no-version');
  });

  it('loads placeholder values with a warning, not a refusal', () => {
    const r = readLogText(jsonl([header({ cwd: '{{cwd}}', id: '{{sessionId}}' }), ...basicTurn]));
    const placeholder = r.diagnostics.filter((d) => d.code === 'header.placeholder');
    expect(placeholder.map((d) => d.path)).toEqual(['header.id', 'header.cwd']);
    expect(placeholder.every((d) => d.severity === 'warning')).toBe(true);
    expect(r.events).toHaveLength(6);
  });

  it('requires delegationDepth and an absolute cwd', () => {
    const h = header({ cwd: 'relative/dir' });
    delete h.delegationDepth;
    const r = readLogText(jsonl([h]));
    expect(r.diagnostics.filter((d) => d.code === 'header.invalid').map((d) => d.path)).toEqual(['header.delegationDepth', 'header.cwd']);
  });
});

describe('packed chunk rows (§1.6c)', () => {
  const packed = (type: string, data: Record<string, unknown>, seq0 = 2, time0 = 100) => ({ type, seq0, time0, data });

  it('expands text, reasoning and tool-call rows with seq0+k and time0+Σdt', () => {
    const rows = [
      header(),
      ...events(['turn/start', { turn: 1 }], ['step/start', { turn: 1, step: 1 }]),
      packed('text-chunks', { turn: 1, step: 1, index: 0, dt: [5, -2], texts: ['a', 'b', 'c'] }),
      packed('reasoning-chunks', { turn: 1, step: 1, index: 1, dt: [], texts: ['r'] }, 5, 200),
      packed('tool-call-chunks', { turn: 1, step: 1, index: 2, id: 'c1', name: 'bash', dt: [1], args: ['{"a"', ':1}'] }, 6, 300),
    ];
    const r = readLogText(jsonl(rows));
    expect(r.diagnostics).toEqual([]);
    expect(r.events.slice(2).map((e) => [e.seq, e.time, e.type])).toEqual([
      [2, 100, 'assistant/chunk'], [3, 105, 'assistant/chunk'], [4, 103, 'assistant/chunk'],
      [5, 200, 'assistant/chunk'], [6, 300, 'assistant/chunk'], [7, 301, 'assistant/chunk'],
    ]);
    expect(r.events[3].data).toEqual({ turn: 1, step: 1, chunk: { type: 'text-delta', index: 0, text: 'b' } });
    expect(r.events[5].data.chunk).toEqual({ type: 'reasoning-delta', index: 1, text: 'r' });
    expect(r.events[7].data.chunk).toEqual({ type: 'tool-call-delta', index: 2, id: 'c1', name: 'bash', argumentsDelta: ':1}' });
    expect(r.origins[3]).toEqual({ line: 4, packedIndex: 1 });
  });

  it('rejects malformed rows: wrong dt length, extra keys, empty texts', () => {
    for (const bad of [
      { turn: 1, step: 1, index: 0, dt: [1, 2], texts: ['a', 'b'] },
      { turn: 1, step: 1, index: 0, dt: [], texts: ['a'], extra: 1 },
      { turn: 1, step: 1, index: 0, dt: [], texts: [] },
    ]) {
      // A later turn/end commits the region, so the bad row is corruption, not torn tail.
      const after = events(['turn/start', { turn: 1 }], ['turn/end', { turn: 1, reason: { kind: 'completed' } }]);
      const r = readLogText(jsonl([header(), packed('text-chunks', bad, 0), ...after]));
      expect(codes(r)).toContain('row.packed');
    }
  });
});

describe('embedded streams and numbering (V4 snapshots)', () => {
  it('numbers rows without seq/time and keeps inline streams on their event', () => {
    const stream = [
      { type: 'chunk', time: 10, chunk: { type: 'block-start', index: 0, blockType: 'text' } },
      { type: 'text-chunks', time0: 11, index: 0, dt: [2], texts: ['he', 'llo'] },
    ];
    const rows = [
      header({ version: 4, isSeeded: false }),
      { type: 'turn/start', data: { turn: 1 } },
      { type: 'assistant/message', data: { ...assistantData('a', 'hello'), stream }, surfaceOp: 'append' },
    ];
    const r = readLogText(jsonl(rows));
    expect(r.events.map((e) => e.seq)).toEqual([0, 1]);
    expect(codes(r)).toEqual(['row.numbered']);
    expect(r.events[1].data.stream).toEqual(stream);
  });
});

describe('torn tails and corruption (§1.8)', () => {
  it('drops a partial last line as a torn tail', () => {
    const r = readLogText(basicLog + '{"type":"turn/start","seq":6,"ti');
    expect(r.events).toHaveLength(6);
    expect(r.tornTail).toMatchObject({ bytes: 32, rows: 0 });
    expect(codes(r)).toEqual(['tail.torn']);
  });

  it('treats bad rows with no later turn/end as torn tail, keeping their text', () => {
    const tail = 'not json\n' + JSON.stringify({ type: 'turn/start', seq: 6, time: 1, data: { turn: 2 } }) + '\n';
    const r = readLogText(basicLog + tail);
    expect(r.events).toHaveLength(6);
    expect(r.tornTail?.rows).toBe(2);
    expect(r.tornTail?.text).toBe(tail);
    expect(codes(r)).toEqual(['tail.torn']);
    expect(r.diagnostics[0].severity).toBe('warning');
  });

  it('calls a bad row before a later turn/end corruption, and still returns every readable event', () => {
    const rows = [header(), ...basicTurn.slice(0, 3), { ...basicTurn[3], seq: 9 }, { ...basicTurn[4], seq: 10 }, { ...basicTurn[5], seq: 11 }];
    const r = readLogText(jsonl(rows));
    const gap = r.diagnostics.find((d) => d.code === 'row.seq-gap');
    expect(gap).toMatchObject({ severity: 'error', line: 5, seq: 9, refuses: true });
    expect(gap?.message).toContain('expected 3, got 9');
    expect(r.events.map((e) => e.seq)).toEqual([0, 1, 2, 9, 10, 11]);
    expect(r.tornTail).toBeNull();
  });

  it('keeps a row whose seq repeats aside, with an error', () => {
    const rows = [header(), ...basicTurn.slice(0, 3), basicTurn[2], ...basicTurn.slice(3)];
    const r = readLogText(jsonl(rows));
    expect(r.events.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(codes(r)).toContain('row.seq-duplicate');
    expect(r.rejectedRows).toHaveLength(1);
  });

  it('reports an unparsable line with its line number', () => {
    const lines = basicLog.split('\n');
    lines.splice(3, 0, '{broken');
    const r = readLogText(lines.join('\n'));
    expect(r.diagnostics.find((d) => d.code === 'row.unparsable')).toMatchObject({ line: 4, severity: 'error' });
    expect(r.events).toHaveLength(6);
  });
});

describe('vocabulary (§2.3)', () => {
  it('words unknown required types as newer than this app (not a refusal) and notes ignorable ones, loading both', () => {
    const rows = [header(), ...events(['turn/start', { turn: 1 }], ['future/thing', {}], ['future/optional', {}, { ignorable: true }])];
    const r = readLogText(jsonl(rows));
    expect(r.events).toHaveLength(3);
    const unknown = r.diagnostics.filter((d) => d.code.startsWith('type.'));
    expect(unknown.map((d) => [d.code, d.severity, d.seq, d.refuses, d.subject])).toEqual([
      ['type.unknown-required', 'warning', 1, undefined, 'future/thing'],
      ['type.unknown-ignorable', 'info', 2, undefined, undefined],
    ]);
    expect(unknown[0].message).toMatch(/newer DSH.*0\.2\.1-alpha\.2/);
  });

  it('checks the envelope and payloads, naming the field', () => {
    const rows = [header(), ...events(
      ['turn/start', { turn: 1 }, { extra: true }],
      ['request/header', { header: { config: { provider: 'p' } }, reason: 'initial' }],
      ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
    )];
    rows[2].seq = 0; // the rejected row left seq 0 free
    rows[3].seq = 1;
    const r = readLogText(jsonl(rows));
    expect(r.diagnostics.find((d) => d.code === 'row.envelope')?.path).toBe('extra');
    expect(r.diagnostics.find((d) => d.code === 'payload.schema')).toMatchObject({ seq: 0, path: 'data.header.config.model' });
  });

  it('decodes range-encoded sourceEventSeqs and rejects bad ranges', () => {
    const rows = [header(), ...events(['turn/start', { turn: 1 }], ['step/start', { turn: 1, step: 1 }], ['step/end', { turn: 1, step: 1 }], ['step/start', { turn: 1, step: 2 }]),
      { type: 'user/message', seq: 4, time: 1, data: userMessage('u', 'x'), surfaceOp: 'append', sourceEventSeqs: [[0, 2], 3] },
      { type: 'turn/end', seq: 5, time: 1, data: { turn: 1, reason: { kind: 'completed' } } }];
    expect(readLogText(jsonl(rows)).events[4].sourceEventSeqs).toEqual([0, 1, 2, 3]);
    rows[5] = { ...rows[5], sourceEventSeqs: [[2, 0]] };
    rows[6] = { ...rows[6], seq: 4 };
    expect(codes(readLogText(jsonl(rows)))).toContain('row.source-seqs');
  });
});

describe('compressed input, by content', () => {
  it('reads zstd made of several frames, fed in small chunks', async () => {
    const lines = basicLog.split(/(?<=\n)/);
    const bytes = zstdFrames([lines[0], lines.slice(1, 4).join(''), lines.slice(4).join('')]);
    const r = await readLog(chunked(bytes, 7));
    expect(r.scan.encoding).toBe('zstd');
    expect(r.events).toHaveLength(6);
    expect(r.diagnostics).toEqual([]);
  });

  it('keeps complete lines of a torn last zstd frame and drops the rest', async () => {
    const lines = basicLog.split(/(?<=\n)/);
    const full = zstdFrames([lines[0], lines.slice(1, 4).join('')]);
    const last = zstdRawFrame(enc.encode(lines.slice(4).join('')));
    const torn = new Uint8Array(full.length + last.length - 20);
    torn.set(full);
    torn.set(last.subarray(0, last.length - 20), full.length);
    const r = await readLog(chunked(torn, 64));
    expect(codes(r)).toContain('bytes.torn-frame');
    expect(r.events.length).toBeGreaterThanOrEqual(3);
    expect(r.events.length).toBeLessThan(6);
    expect(r.events.map((e) => e.seq)).toEqual([...r.events.keys()]);
  });

  it('reports a corrupt zstd frame and keeps what decoded before it', async () => {
    const lines = basicLog.split(/(?<=\n)/);
    const bytes = zstdFrames([lines[0], lines.slice(1).join('')]);
    const second = zstdRawFrame(enc.encode(lines[0])).length;
    bytes[second + 4] = 0xff; // break the second frame's descriptor
    const r = await readLog(chunked(bytes, 1000));
    expect(codes(r)).toContain('bytes.zstd-corrupt');
    expect(r.header?.id).toBe('test-session');
  });

  it('reads gzip', async () => {
    const r = await readLog(chunked(new Uint8Array(gzipSync(basicLog)), 10));
    expect(r.scan.encoding).toBe('gzip');
    expect(r.events).toHaveLength(6);
  });

  it('flags a binary file instead of crashing', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 64 }, (_, i) => i)]);
    const r = await readLog([png]);
    expect(r.header).toBeNull();
    expect(codes(r)).toEqual(expect.arrayContaining(['header.missing', 'bytes.not-text']));
  });

  it('reports an empty file', async () => {
    const r = await readLog([]);
    expect(codes(r)).toEqual(['bytes.empty']);
  });
});

describe('binary input', () => {
  it('stops reading a large binary file after its first chunk', async () => {
    let pulled = 0;
    async function* huge(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 10_000; i++) { pulled++; yield new Uint8Array(64 * 1024).map((_, k) => (k * 31 + i) % 256); }
    }
    const r = await readLog(huge());
    expect(r.diagnostics.map((d) => d.code)).toContain('bytes.not-text');
    expect(pulled).toBeLessThan(5);
  });
});
