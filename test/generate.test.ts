import { describe, expect, it } from 'vitest';
import { generateLog, type GenerateOptions } from '../src/core/generate/generate-log.ts';

// The checks below are written from the spec (log-and-surface.md §1.6, §2, §4,
// §6.4, §9), not from the generator, so they catch generator drift.

type Ev = { type: string; seq: number; time: number; data: any; surfaceOp?: any; sourceEventSeqs?: number[] };
type Dialect = 'v0' | 'v4';
const PACKED = new Set(['text-chunks', 'reasoning-chunks', 'tool-call-chunks']);
// Types the generator may write, from the rc.8 catalog (§3) plus the V4-era additions.
const RC8_TYPES = ['turn/start', 'turn/end', 'step/start', 'step/end', 'user/message', 'assistant/chunk', 'assistant/message', 'tool/call', 'tool/result', 'request/header', 'request/context', 'todo/write', 'compaction/start', 'compaction/summary', 'compaction/end', 'compaction/prune', 'agent/inbox/spliced', 'approval/policy', 'sandbox/mode', 'permission/preset', 'llm/retry', 'llm/retry-started', 'session/title', 'goal/change'];
const V4_TYPES = [...RC8_TYPES.filter((t) => t !== 'assistant/chunk'), 'system/message', 'developer/message', 'assistant/attempt', 'image/offload', 'model/selection'];
const RC_PREFIX = 'Current runtime context. This snapshot supersedes earlier runtime-context snapshots.\n\n';

/** Parse the JSONL and expand V0 packed rows: member k gets seq0 + k and time0 + dt[0..k-1]. */
function decode(text: string): { header: any; events: Ev[]; records: any[] } {
  expect(text.endsWith('\n')).toBe(true);
  const lines = text.slice(0, -1).split('\n');
  const header = JSON.parse(lines[0]);
  const records = lines.slice(1).map((l) => JSON.parse(l));
  const events: Ev[] = [];
  for (const r of records) {
    if (!PACKED.has(r.type)) {
      events.push(r);
      continue;
    }
    expect(Object.keys(r).sort()).toEqual(['data', 'seq0', 'time0', 'type']);
    const { turn, step, index, dt } = r.data;
    const payload: string[] = r.data.texts ?? r.data.args;
    expect(payload.length).toBeGreaterThan(0);
    expect(dt.length).toBe(payload.length - 1);
    let time = r.time0;
    payload.forEach((p, k) => {
      if (k > 0) time += dt[k - 1];
      const chunk =
        r.type === 'tool-call-chunks'
          ? { type: 'tool-call-delta', index, id: r.data.id, ...('name' in r.data ? { name: r.data.name } : {}), argumentsDelta: p }
          : { type: r.type === 'text-chunks' ? 'text-delta' : 'reasoning-delta', index, text: p };
      events.push({ type: 'assistant/chunk', seq: r.seq0 + k, time, data: { turn, step, chunk } });
    });
  }
  return { header, events, records };
}

/** Tiny surface fold (§4): returns nodes, per-replace shadowed nodes and every rule violation. */
function fold(events: Ev[], dialect: Dialect) {
  const surfaceTypes = new Set(['user/message', 'assistant/message', 'tool/result', ...(dialect === 'v4' ? ['system/message', 'developer/message'] : [])]);
  const [sk, ek] = dialect === 'v0' ? ['start', 'end'] : ['startSeq', 'endSeq'];
  const nodes: number[] = [];
  const shadowedBy = new Map<number, number[]>();
  const errors: string[] = [];
  for (const e of events) {
    if (!surfaceTypes.has(e.type)) {
      if (e.surfaceOp !== undefined || e.sourceEventSeqs !== undefined) errors.push(`${e.seq}: log-only ${e.type} carries surface fields`);
      continue;
    }
    if (e.surfaceOp === undefined) {
      errors.push(`${e.seq}: ${e.type} lacks surfaceOp`);
      continue;
    }
    const src = e.sourceEventSeqs;
    if (src !== undefined) {
      if (src.length === 0) errors.push(`${e.seq}: empty sourceEventSeqs`);
      if (new Set(src).size !== src.length) errors.push(`${e.seq}: duplicate sources`);
      if (src.some((s) => !Number.isSafeInteger(s) || s < 0 || s >= e.seq)) errors.push(`${e.seq}: source not earlier`);
      if (dialect === 'v4' && e.type === 'assistant/message') errors.push(`${e.seq}: V4 assistant cites sources`);
    }
    if (e.surfaceOp === 'append') {
      nodes.push(e.seq);
      continue;
    }
    const op = e.surfaceOp;
    if (Object.keys(op).sort().join() !== ['op', sk, ek].sort().join() || op.op !== 'replace') {
      errors.push(`${e.seq}: malformed replace ${JSON.stringify(op)}`);
      continue;
    }
    const i = nodes.indexOf(op[sk]);
    const j = nodes.indexOf(op[ek]);
    if (i < 0 || j < 0 || i > j || op[sk] >= e.seq || op[ek] >= e.seq) {
      errors.push(`${e.seq}: bad endpoints ${op[sk]}..${op[ek]} (index ${i}..${j})`);
      continue;
    }
    const shadowed = nodes.slice(i, j + 1);
    const missing = shadowed.filter((s) => !src?.includes(s));
    if (missing.length) errors.push(`${e.seq}: does not cite shadowed ${missing}`);
    if (e.type === 'tool/result') {
      const old = events[shadowed[0]];
      if (shadowed.length !== 1 || old.type !== 'tool/result') errors.push(`${e.seq}: tool-result replace must shadow one tool/result`);
      else if (JSON.stringify(blankContent(old.data, dialect)) !== JSON.stringify(blankContent(e.data, dialect))) errors.push(`${e.seq}: tool-result rewrite changes more than content`);
    }
    if (dialect === 'v4' && i === 0 && events[nodes[0]].type === 'system/message' && (e.type !== 'system/message' || j !== 0)) errors.push(`${e.seq}: shadows the system head`);
    nodes.splice(i, j - i + 1, e.seq);
    shadowedBy.set(e.seq, shadowed);
  }
  return { nodes, shadowedBy, errors };
}
function blankContent(data: any, dialect: Dialect): unknown {
  const d = JSON.parse(JSON.stringify(data));
  if (dialect === 'v4') d.message.content = null;
  else d.message.content[0].content = null;
  return d;
}
const messageOf = (e: Ev) => (e.type === 'user/message' ? e.data : e.data.message);
/** Join the deltas of a V0 chunk list or an expanded V4 stream per block index. */
function joinDeltas(chunks: any[]): Map<number, string> {
  const out = new Map<number, string>();
  for (const c of chunks) {
    const piece = c.type === 'tool-call-delta' ? c.argumentsDelta : c.type.endsWith('-delta') ? c.text : undefined;
    if (piece !== undefined) out.set(c.index, (out.get(c.index) ?? '') + piece);
  }
  return out;
}
function expandStream(stream: any[]): any[] {
  return stream.flatMap((r) => {
    if (r.type === 'chunk') return [r.chunk];
    const payload: string[] = r.texts ?? r.args;
    expect(r.dt.length).toBe(payload.length - 1);
    return payload.map((p) => (r.type === 'tool-call-chunks' ? { type: 'tool-call-delta', index: r.index, id: r.id, name: r.name, argumentsDelta: p } : { type: r.type === 'text-chunks' ? 'text-delta' : 'reasoning-delta', index: r.index, text: p }));
  });
}

/** Every structural invariant we promise; returns the decoded log for extra checks. */
function checkLog(opts: GenerateOptions) {
  const dialect = opts.dialect;
  const log = generateLog(opts);
  expect(log.text).toBe(log.lines.map((l) => l + '\n').join(''));
  const { header, events, records } = decode(log.text);
  expect(header).toEqual(log.header);
  expect(header.type).toBe('session');
  expect(header.version).toBe(dialect === 'v0' ? 0 : 4);
  expect('isSeeded' in header).toBe(dialect === 'v4');
  // Every storage record has seq/time (or seq0/time0); decoded seqs are contiguous from 0.
  for (const r of records) {
    const [seq, time] = PACKED.has(r.type) ? [r.seq0, r.time0] : [r.seq, r.time];
    expect(Number.isSafeInteger(seq) && Number.isSafeInteger(time)).toBe(true);
  }
  events.forEach((e, i) => expect(e.seq).toBe(i));
  const vocabulary = new Set(dialect === 'v0' ? RC8_TYPES : V4_TYPES);
  expect(events.map((e) => e.type).filter((t) => !vocabulary.has(t))).toEqual([]);
  expect(events).toEqual(log.events);
  if (dialect === 'v4') expect(records.some((r) => PACKED.has(r.type) || r.type === 'assistant/chunk')).toBe(false);
  else expect(events.some((e) => ['system/message', 'developer/message', 'assistant/attempt', 'image/offload'].includes(e.type))).toBe(false);

  const { shadowedBy, errors, nodes } = fold(events, dialect);
  expect(errors).toEqual([]);

  // Messages: non-empty ids, unique among append-origin events (replacements may keep an id).
  const ids = new Set<string>();
  for (const e of events.filter((x) => x.surfaceOp !== undefined)) {
    const m = messageOf(e);
    expect(typeof m.id === 'string' && m.id.length > 0).toBe(true);
    expect(Array.isArray(m.content)).toBe(true);
    if (e.surfaceOp === 'append') {
      expect(ids.has(m.id)).toBe(false);
      ids.add(m.id);
    }
  }
  for (let k = 0; k < events.length; k++) {
    const e = events[k];
    const next = events[k + 1];
    if (e.type === 'compaction/summary') {
      expect(next.type).toBe('user/message');
      expect(shadowedBy.get(next.seq)).toEqual(e.data.shadowedSeqs);
      expect(next.data.source).toMatchObject(dialect === 'v0' ? { kind: 'plugin', plugin: 'compact', compactionId: e.data.compactionId } : { kind: 'compact-checkpoint', compactionId: e.data.compactionId });
      if (dialect === 'v4') expect(events[e.data.shadowedSeqs[0]].type).not.toBe('system/message');
    }
    if (e.type === 'compaction/prune') {
      expect(next.type).toBe('tool/result');
      expect(shadowedBy.get(next.seq)).toEqual(e.data.shadowedSeqs);
    }
    if (e.type === 'user/message' && e.data.content[0].text?.startsWith('Current runtime context.')) {
      expect(e.data.content[0].text).toBe(RC_PREFIX + e.data.source.sections.map((s: any) => s.text).join('\n\n'));
      expect(e.data.source.kind).toBe(dialect === 'v0' ? 'plugin' : 'runtime-context');
    }
    if (e.type === 'request/header') expect('system' in e.data.header).toBe(dialect === 'v0');
    if (e.type === 'developer/message' && e.data.headerSeq !== undefined) {
      const h = events[e.data.headerSeq];
      expect(h.type).toBe('request/header');
      for (const b of e.data.message.content.filter((x: any) => x.type === 'tool-addition')) expect(h.data.header.tools.filter((t: any) => t.name === b.toolName)).toHaveLength(1);
    }
    if (e.type === 'image/offload') {
      const live = fold(events.slice(0, e.seq), dialect).nodes;
      for (const t of e.data.targets) {
        expect(live).toContain(t.seq);
        expect(events[t.seq].data.content.filter((b: any) => b.type === 'image').length).toBeGreaterThan(Math.max(...t.imageIndexes));
      }
    }
    // Streamed deltas must spell out exactly the assembled reply.
    if (e.type === 'assistant/message') {
      const chunks = dialect === 'v0' ? e.sourceEventSeqs!.map((s) => events[s]).map((c) => (expect(c.type).toBe('assistant/chunk'), expect(c.data.step).toBe(e.data.step), c.data.chunk)) : expandStream(e.data.stream);
      const joined = joinDeltas(chunks);
      e.data.message.content.forEach((b: any, i: number) => expect(joined.get(i)).toBe(b.type === 'tool-call' ? b.arguments : b.text));
    }
  }

  // Turn structure: every tool/call is answered (unless the log ends in an open turn).
  const starts = events.filter((e) => e.type === 'turn/start').length;
  const ends = events.filter((e) => e.type === 'turn/end');
  expect(ends.every((e) => e.data.reason.kind === 'completed')).toBe(true);
  const answered = new Set(events.filter((e) => e.type === 'tool/result' && e.surfaceOp === 'append').map((e) => messageOf(e).source.callId));
  const unanswered = events.filter((e) => e.type === 'tool/call' && !answered.has(e.data.callId));
  if (opts.openLastTurn) {
    expect(ends.length).toBe(starts - 1);
    expect(events[events.length - 1].type).toBe('tool/call');
    expect(unanswered.length).toBeGreaterThan(0);
  } else {
    expect(ends.length).toBe(starts);
    expect(unanswered).toEqual([]);
  }
  return { log, events, nodes };
}

const count = (events: Ev[], type: string) => events.filter((e) => e.type === type).length;

describe('generateLog', () => {
  const matrix: GenerateOptions[] = [
    { dialect: 'v0' },
    { dialect: 'v4' },
    { dialect: 'v0', packChunks: false, seed: 9, turns: 5, stepsPerTurn: 2, compactEvery: 2 },
    { dialect: 'v0', seed: 11, turns: 7, stepsPerTurn: 6, compactEvery: 3, openLastTurn: true, imageOffload: true },
    { dialect: 'v4', seed: 12, turns: 9, stepsPerTurn: 5, compactEvery: 1, imageOffload: true },
    { dialect: 'v4', seed: 13, turns: 4, stepsPerTurn: 1, compactEvery: 2, openLastTurn: true },
    { dialect: 'v4', seed: 14, turns: 1, stepsPerTurn: 3, compactEvery: 0 },
  ];
  for (const opts of matrix) it(`holds the structural invariants for ${JSON.stringify(opts)}`, () => checkLog(opts));

  it('covers compaction, pruning, retries, header changes and projections', () => {
    for (const dialect of ['v0', 'v4'] as const) {
      // Pruning and extra retries are random; pool a few seeds so the check does not hinge on one.
      const events = [5, 6, 7].flatMap((seed) => checkLog({ dialect, seed, turns: 12, stepsPerTurn: 5, compactEvery: 3, imageOffload: true }).events);
      for (const type of ['compaction/start', 'compaction/summary', 'compaction/end', 'compaction/prune', 'llm/retry', 'llm/retry-started', 'todo/write', 'session/title', 'request/context'])
        expect(count(events, type), type).toBeGreaterThan(0);
      const reasons = events.filter((e) => e.type === 'request/header').map((e) => e.data.reason);
      expect(reasons[0]).toBe('initial');
      expect(reasons).toContain('change');
      if (dialect === 'v0') expect(count(events, 'assistant/chunk')).toBeGreaterThan(1000);
      else {
        expect(reasons).toContain('series');
        for (const type of ['system/message', 'developer/message', 'image/offload', 'assistant/attempt']) expect(count(events, type), type).toBeGreaterThan(0);
        expect(events.some((e) => e.type === 'system/message' && e.surfaceOp !== 'append')).toBe(true);
      }
    }
  });

  it('packs V0 delta runs only when asked', () => {
    const packed = generateLog({ dialect: 'v0', seed: 3 });
    const plain = generateLog({ dialect: 'v0', seed: 3, packChunks: false });
    expect(packed.events).toEqual(plain.events);
    expect(packed.lines.length).toBeLessThan(plain.lines.length / 3);
    expect(plain.lines.some((l) => l.includes('"seq0"'))).toBe(false);
  });

  it('is deterministic per seed and varies across seeds', () => {
    for (const dialect of ['v0', 'v4'] as const) {
      const a = generateLog({ dialect, seed: 42, turns: 5 });
      expect(generateLog({ dialect, seed: 42, turns: 5 }).text).toBe(a.text);
      expect(generateLog({ dialect, seed: 43, turns: 5 }).text).not.toBe(a.text);
    }
  });

  it('generates a 200k-event log in reasonable time', () => {
    const t0 = performance.now();
    const log = generateLog({ dialect: 'v0', seed: 7, turns: 300, stepsPerTurn: 5, compactEvery: 10, packChunks: true });
    const ms = performance.now() - t0;
    expect(log.events.length).toBeGreaterThanOrEqual(200_000);
    expect(ms).toBeLessThan(20_000);
    const { events } = decode(log.text);
    expect(events.length).toBe(log.events.length);
    expect(fold(events, 'v0').errors).toEqual([]);
  }, 60_000);
});

describe('streamLog', () => {
  it('writes the same lines as generateLog without keeping events', async () => {
    const { streamLog } = await import('../src/core/generate/generate-log.ts');
    for (const dialect of ['v0', 'v4'] as const) {
      const opts = { dialect, seed: 21, turns: 30, compactEvery: 3, imageOffload: dialect === 'v4' };
      const lines: string[] = [];
      const count = streamLog(opts, (l) => void lines.push(l));
      const whole = generateLog(opts);
      expect(lines).toEqual(whole.lines);
      expect(count).toBe(whole.events.length);
    }
  });
});
