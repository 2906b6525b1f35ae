// Section ids (L…, V…) are those of docs/dsh-log-rules.md.
import type { Rng } from '../generate/prng.ts';
import { MAX_ROW_DEPTH } from '../log/reader.ts';
import { joinLines, type FuzzBase } from './base.ts';
import { concatBytes, gzipRuns, gzipStored, zstdFrame, zstdRawFrame, zstdSkippableFrame, type RunPiece } from './encode.ts';

/**
 * Seeded mutators over a log's text and bytes. Each returns the mutated
 * input and what the case runner must then see: where the fault is to be
 * explained, or that the mutation is harmless and the results must match
 * the base's.
 */
export type Fault =
  /** A valid variant: no new error diagnostics. */
  | { kind: 'none' }
  /** Anything may happen (a byte flip inside a string is a different valid log). */
  | { kind: 'maybe' }
  /** A new warning/error diagnostic at this line (exact) or at/after it. */
  | { kind: 'line'; line: number; exact: boolean }
  /** A new warning/error diagnostic naming this seq, or the line of its row. */
  | { kind: 'seq'; seq: number; line: number };

export interface Mutation {
  mutator: string;
  detail: string;
  /** Plain input as text (encoded to UTF-8) or as bytes. */
  text?: string;
  bytes?: Uint8Array;
  encoding: 'plain' | 'zstd' | 'gzip';
  /** Decoded text known to precede the fault (compressed inputs); plain inputs diff against the base. */
  prefixText?: string;
  fault: Fault;
  /**
   * The mutation must not change what the log means: the same events
   * (`sameEvents`), or the same surface after mapping base seqs (`seqShift`:
   * seqs ≥ at move up by one, an inserted opaque event).
   */
  equivalent?: { sameEvents?: true; seqShift?: { at: number } };
  /** The reader's line limit for this case (set low so giant lines stay cheap to build). */
  maxLineChars?: number;
  /** Decoded size of an input built to expand (a bomb), or of a huge line or run of blank lines: the runner checks memory stays bounded while reading it. */
  expands?: number;
}

export interface MutateOptions {
  /** Size range of inserted huge lines, bytes. */
  hugeBytes: [number, number];
  /** Deepest nesting the deep-nesting mutator tries (default 1,000,000). */
  maxDepth?: number;
  /** Decoded size range of expansion-heavy zstd/gzip inputs, bytes (default: hugeBytes). */
  bombBytes?: [number, number];
}

export type Mutator = (base: FuzzBase, rng: Rng, options: MutateOptions) => Mutation | null;

type Row = Record<string, any>;
const enc = new TextEncoder();
const dec = new TextDecoder('utf-8', { ignoreBOM: true });

function parseRow(line: string | undefined): Row | null {
  if (line === undefined) return null;
  try {
    const v = JSON.parse(line);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

/** Physical lines holding events (1-based), with the first seq of each. */
const lineSeqCache = new WeakMap<FuzzBase, { lines: number[]; seqOf: Map<number, number>; lineOf: Map<number, number> }>();
function eventLines(base: FuzzBase) {
  let hit = lineSeqCache.get(base);
  if (!hit) {
    const seqOf = new Map<number, number>();
    const lineOf = new Map<number, number>();
    base.read.origins.forEach((o, i) => {
      if (!seqOf.has(o.line)) seqOf.set(o.line, base.read.events[i].seq);
      lineOf.set(base.read.events[i].seq, o.line);
    });
    hit = { lines: [...seqOf.keys()].filter((l) => l >= 2), seqOf, lineOf };
    lineSeqCache.set(base, hit);
  }
  return hit;
}

function pickEventLine(base: FuzzBase, rng: Rng, filter?: (row: Row, line: number) => boolean): { line: number; row: Row } | null {
  const { lines } = eventLines(base);
  if (!lines.length) return null;
  for (let tries = 0; tries < 40; tries++) {
    const line = rng.pick(lines);
    const row = parseRow(base.lines[line - 1]);
    if (row && (!filter || filter(row, line))) return { line, row };
  }
  // Fall back to a scan so rare rows (a packed row, a replace) are still found.
  const hits = lines.filter((line) => { const r = parseRow(base.lines[line - 1]); return r && (!filter || filter(r, line)); });
  if (!hits.length) return null;
  const line = rng.pick(hits);
  return { line, row: parseRow(base.lines[line - 1])! };
}

function replaceLine(base: FuzzBase, line: number, text: string | string[]): string {
  const lines = base.lines.slice();
  lines.splice(line - 1, 1, ...(Array.isArray(text) ? text : [text]));
  return joinLines(base, lines);
}

/** Line number (1-based) of a byte offset in the base. */
function lineAtByte(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < bytes.length; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

function lineByteRange(base: FuzzBase, line: number): [number, number] {
  let start = 0;
  let l = 1;
  const b = base.bytes;
  while (l < line && start < b.length) {
    const nl = b.indexOf(0x0a, start);
    if (nl < 0) return [b.length, b.length];
    start = nl + 1;
    l++;
  }
  const nl = b.indexOf(0x0a, start);
  return [start, nl < 0 ? b.length : nl];
}

/** Moves every seq reference ≥ at by `by`: envelope seqs, surface ops, sources and the data fields the fold reads. */
export function shiftRow(row: Row, at: number, by = 1): Row {
  const f = (s: unknown) => (typeof s === 'number' && s >= at ? s + by : s);
  const out: Row = { ...row };
  if ('seq' in out) out.seq = f(out.seq);
  if ('seq0' in out) out.seq0 = f(out.seq0);
  const op = out.surfaceOp;
  if (op && typeof op === 'object') {
    out.surfaceOp = { ...op };
    for (const k of ['start', 'end', 'startSeq', 'endSeq']) if (k in op) out.surfaceOp[k] = f(op[k]);
  }
  if (Array.isArray(out.sourceEventSeqs)) {
    out.sourceEventSeqs = out.sourceEventSeqs.flatMap((s: unknown) => {
      if (!Array.isArray(s)) return [f(s)];
      const [a, b] = s as number[];
      if (a < at && b >= at) return [[a, at - 1], [at + by, b + by]];
      return [[f(a), f(b)]];
    });
  }
  const d = out.data;
  if (d && typeof d === 'object' && !Array.isArray(d)) {
    if (typeof d.headerSeq === 'number') out.data = { ...d, headerSeq: f(d.headerSeq) };
    if (out.type === 'image/offload' && Array.isArray(d.targets)) {
      out.data = { ...out.data, targets: d.targets.map((t: any) => (t && typeof t === 'object' ? { ...t, seq: f(t.seq) } : t)) };
    }
  }
  return out;
}

/** Inserts one row before line `line`, shifting every later seq and reference. */
function insertRow(base: FuzzBase, line: number, make: (seq: number, time: number) => Row | string): { text: string; seq: number } | null {
  const { seqOf } = eventLines(base);
  const lastEvent = base.read.events.at(-1);
  const seq = line <= base.lines.length ? seqOf.get(line) : lastEvent ? lastEvent.seq + 1 : 0;
  if (seq === undefined) return null;
  const prev = base.read.events.find((e) => e.seq === seq - 1);
  const row = make(seq, prev?.time ?? 0);
  const lines = base.lines.map((l, i) => {
    if (i + 1 < line || i === 0) return l;
    const r = parseRow(l);
    return r ? JSON.stringify(shiftRow(r, seq)) : l;
  });
  lines.splice(line - 1, 0, typeof row === 'string' ? row : JSON.stringify(row));
  return { text: joinLines(base, lines), seq };
}

function envelope(base: FuzzBase, type: string, seq: number, time: number, data: unknown, extra: Row = {}): Row {
  return base.numbered ? { type, data, ...extra } : { type, seq, time, data, ...extra };
}

const pickInsertLine = (base: FuzzBase, rng: Rng) => {
  const { lines } = eventLines(base);
  return lines.length ? (rng.chance(0.1) ? base.lines.length + 1 : rng.pick(lines)) : null;
};

// ————————————————————————————————————————— bytes

/** Cut the file at byte `cut`. */
export function truncateAt(base: FuzzBase, cut: number): Mutation {
  const b = base.bytes;
  const line = lineAtByte(b, cut);
  const atBoundary = cut === 0 || b[cut - 1] === 0x0a;
  const fault: Fault = cut === 0 ? { kind: 'line', line: 1, exact: true } : atBoundary ? { kind: 'none' } : { kind: 'line', line, exact: true };
  return { mutator: 'truncate', detail: `cut at byte ${cut} of ${b.length} (line ${line})`, bytes: b.subarray(0, cut), encoding: 'plain', fault };
}

/** Every byte boundary of one line (and the boundary after it): a region sweep. */
export function truncateSweep(base: FuzzBase, line: number): Mutation[] {
  const [start, end] = lineByteRange(base, line);
  const out: Mutation[] = [];
  for (let cut = start; cut <= Math.min(end + 1, base.bytes.length); cut++) out.push(truncateAt(base, cut));
  return out;
}

const truncate: Mutator = (base, rng) => {
  if (rng.chance(0.5)) return truncateAt(base, rng.int(0, base.bytes.length));
  const line = rng.int(1, base.lines.length);
  const [start, end] = lineByteRange(base, line);
  return truncateAt(base, rng.int(start, end));
};

const SPECIAL_BYTES = [0x0a, 0x0d, 0x22, 0x7b, 0x7d, 0x5c, 0x00, 0xff, 0xc3, 0x80, 0x20, 0x2c, 0x3a, 0x5b, 0x5d, 0xef, 0xbb, 0xbf];

const flipBytes: Mutator = (base, rng) => {
  const line = rng.int(1, base.lines.length);
  const [start, end] = lineByteRange(base, line);
  if (end <= start) return null;
  const bytes = base.bytes.slice();
  const n = rng.int(1, 3);
  const where: string[] = [];
  for (let k = 0; k < n; k++) {
    const at = rng.int(start, end - 1);
    bytes[at] = rng.chance(0.5) ? bytes[at] ^ rng.int(1, 255) : rng.pick(SPECIAL_BYTES);
    where.push(`${at}=0x${bytes[at].toString(16)}`);
  }
  return { mutator: 'flip-bytes', detail: `line ${line}: ${where.join(' ')}`, bytes, encoding: 'plain', fault: { kind: 'maybe' } };
};

// ————————————————————————————————————————— lines

const dropLine: Mutator = (base, rng) => {
  const line = rng.int(1, base.lines.length);
  const lines = base.lines.slice();
  lines.splice(line - 1, 1);
  const last = line === base.lines.length;
  const isEvent = eventLines(base).seqOf.has(line);
  // Dropping the last row leaves a valid shorter log; any other event row opens a seq gap on the next line.
  const fault: Fault = line === 1 ? { kind: 'line', line: 1, exact: true } : last ? { kind: 'none' } : isEvent && !base.numbered ? { kind: 'line', line, exact: true } : { kind: 'maybe' };
  return { mutator: 'drop-line', detail: `drop line ${line}`, text: joinLines(base, lines), encoding: 'plain', fault };
};

const duplicateLine: Mutator = (base, rng) => {
  const line = rng.int(1, base.lines.length);
  const lines = base.lines.slice();
  lines.splice(line, 0, lines[line - 1]);
  const fault: Fault = base.numbered ? { kind: 'maybe' } : { kind: 'line', line: line + 1, exact: true };
  return { mutator: 'duplicate-line', detail: `duplicate line ${line}`, text: joinLines(base, lines), encoding: 'plain', fault };
};

const swapLines: Mutator = (base, rng) => {
  if (base.lines.length < 3) return null;
  const line = rng.int(2, base.lines.length - 1);
  const lines = base.lines.slice();
  [lines[line - 1], lines[line]] = [lines[line], lines[line - 1]];
  if (lines[line - 1] === lines[line]) return null;
  const bothEvents = eventLines(base).seqOf.has(line) && eventLines(base).seqOf.has(line + 1);
  const fault: Fault = bothEvents && !base.numbered ? { kind: 'line', line, exact: true } : { kind: 'maybe' };
  return { mutator: 'swap-lines', detail: `swap lines ${line} and ${line + 1}`, text: joinLines(base, lines), encoding: 'plain', fault };
};

const renumberSeqs: Mutator = (base, rng) => {
  if (base.numbered) return null;
  const hit = pickEventLine(base, rng);
  if (!hit) return null;
  const { line } = hit;
  if (rng.chance(0.3)) {
    // One bad seq value: the envelope rejects it.
    const bad = rng.pick([1.5, -1, '7', null, 2 ** 53, true, [], {}] as unknown[]);
    const row = { ...hit.row };
    if ('seq0' in row) row.seq0 = bad; else row.seq = bad;
    return { mutator: 'renumber', detail: `line ${line}: seq := ${JSON.stringify(bad)}`, text: replaceLine(base, line, JSON.stringify(row)), encoding: 'plain', fault: { kind: 'line', line, exact: true } };
  }
  const by = rng.pick([-3, -2, -1, 1, 2, 1000]);
  const lines = base.lines.map((l, i) => {
    if (i + 1 < line) return l;
    const r = parseRow(l);
    if (!r) return l;
    const out = { ...r };
    if (typeof out.seq === 'number') out.seq += by;
    if (typeof out.seq0 === 'number') out.seq0 += by;
    return JSON.stringify(out);
  });
  return { mutator: 'renumber', detail: `seqs from line ${line} shifted by ${by}`, text: joinLines(base, lines), encoding: 'plain', fault: { kind: 'line', line, exact: true } };
};

const breakJson: Mutator = (base, rng) => {
  const line = rng.chance(0.1) ? 1 : rng.int(1, base.lines.length);
  const text = base.lines[line - 1];
  if (!text || !text.startsWith('{') || !text.endsWith('}')) return null;
  const variant = rng.int(0, 9);
  let broken: string;
  let exact = true;
  switch (variant) {
    case 0: broken = text.slice(0, -1); break;
    case 1: broken = text.slice(1); break;
    case 2: broken = text + ','; break;
    case 3: broken = text + text; break;
    case 4: broken = rng.pick(['[]', '42', '"row"', 'null', 'true', '[{"type":"turn/start"}]']); break;
    case 5: broken = '{}'; break;
    case 6: broken = text.slice(0, -1) + ',"x":}'; break;
    case 7: broken = text.replace(/"/, "'"); break;
    case 8: broken = text.slice(0, rng.int(1, text.length - 1)); break;
    default: {
      const at = rng.int(1, text.length - 1);
      broken = text.slice(0, at) + rng.pick(['}', '{', '"', ']', '\\', '\u0000', 'NaN', ',,']) + text.slice(at);
      exact = false;
    }
  }
  const fault: Fault = exact ? { kind: 'line', line, exact: true } : { kind: 'maybe' };
  return { mutator: 'break-json', detail: `line ${line} variant ${variant}`, text: replaceLine(base, line, broken), encoding: 'plain', fault };
};

/** Fields a row of each type must carry (envelope, then payload schemas of payloads.ts). */
const REQUIRED: Record<string, string[]> = {
  'turn/start': ['data.turn'],
  'turn/end': ['data.turn', 'data.reason', 'data.reason.kind'],
  'step/start': ['data.turn', 'data.step'],
  'step/end': ['data.turn', 'data.step'],
  'user/message': ['data.id', 'data.role', 'data.content', 'data.source', 'data.source.kind'],
  'system/message': ['data.turn', 'data.step', 'data.message', 'data.message.id', 'data.message.role', 'data.message.content', 'data.message.source'],
  'developer/message': ['data.turn', 'data.step', 'data.message', 'data.message.id', 'data.message.role', 'data.message.content'],
  'assistant/chunk': ['data.turn', 'data.step', 'data.chunk', 'data.chunk.type'],
  'assistant/message': ['data.turn', 'data.step', 'data.message', 'data.message.id', 'data.message.content', 'data.message.source.provider', 'data.message.source.model'],
  'assistant/attempt': ['data.turn', 'data.step', 'data.stream'],
  'tool/call': ['data.turn', 'data.step', 'data.callId', 'data.name', 'data.arguments'],
  'tool/result': ['data.turn', 'data.step', 'data.message', 'data.message.id', 'data.message.source', 'data.message.content'],
  'request/header': ['data.header', 'data.reason', 'data.header.config', 'data.header.config.model'],
  'request/context': ['data.provider', 'data.model'],
  'todo/write': ['data.todos'],
  session: ['id', 'createdAt', 'delegationDepth', 'type'],
};
const SURFACE_TYPES = new Set(['user/message', 'assistant/message', 'tool/result', 'system/message', 'developer/message']);

function editPath(row: Row, path: string, edit: (parent: Row, key: string) => void): Row | null {
  const copy = JSON.parse(JSON.stringify(row)) as Row;
  const keys = path.split('.');
  let node: any = copy;
  for (const k of keys.slice(0, -1)) {
    if (!node || typeof node !== 'object' || !(k in node)) return null;
    node = node[k];
  }
  const last = keys[keys.length - 1];
  if (!node || typeof node !== 'object' || Array.isArray(node) || !(last in node)) return null;
  edit(node, last);
  return copy;
}

function requiredPaths(row: Row, line: number, numbered: boolean): string[] {
  if (line === 1) return row.type === 'session' ? REQUIRED.session : [];
  if (typeof row.seq0 === 'number') return ['seq0', 'time0', 'data', 'data.turn', 'data.index', 'data.dt'];
  const envelopeKeys = numbered ? ['type', 'data'] : ['type', 'seq', 'time', 'data'];
  const surface = SURFACE_TYPES.has(row.type) && row.surfaceOp !== undefined ? ['surfaceOp'] : [];
  return [...envelopeKeys, ...surface, ...(REQUIRED[row.type] ?? [])];
}

function faultFor(base: FuzzBase, line: number, path: string, row: Row): Fault {
  if (path === 'surfaceOp') return { kind: 'seq', seq: eventLines(base).seqOf.get(line) ?? row.seq, line };
  return { kind: 'line', line, exact: true };
}

/** Picks a row (the header one time in ten) and one of its required fields to edit. */
function pickRequiredField(base: Parameters<Mutator>[0], rng: Parameters<Mutator>[1]) {
  const line = rng.chance(0.1) ? 1 : (pickEventLine(base, rng)?.line ?? 1);
  const row = parseRow(base.lines[line - 1]);
  if (!row) return null;
  const paths = requiredPaths(row, line, base.numbered);
  if (!paths.length) return null;
  return { line, row, path: rng.pick(paths) };
}

const removeField: Mutator = (base, rng) => {
  const pick = pickRequiredField(base, rng);
  if (!pick) return null;
  const { line, row, path } = pick;
  const edited = editPath(row, path, (parent, key) => { delete parent[key]; });
  if (!edited) return null;
  return { mutator: 'remove-field', detail: `line ${line}: remove ${path}`, text: replaceLine(base, line, JSON.stringify(edited)), encoding: 'plain', fault: faultFor(base, line, path, row) };
};

const WRONG_VALUES: unknown[] = [null, [], 'x', '', -1, 0, 1.5, {}, true, [1], { kind: 7 }];

const wrongType: Mutator = (base, rng) => {
  const pick = pickRequiredField(base, rng);
  if (!pick) return null;
  const { line, row, path } = pick;
  const value = rng.pick(WRONG_VALUES);
  const edited = editPath(row, path, (parent, key) => { parent[key] = value; });
  if (!edited) return null;
  // A wrong value may still be a valid one (turn 0 vs 1, an empty string): anything may follow, but nothing may crash.
  return { mutator: 'wrong-type', detail: `line ${line}: ${path} := ${JSON.stringify(value)}`, text: replaceLine(base, line, JSON.stringify(edited)), encoding: 'plain', fault: { kind: 'maybe' } };
};

// ————————————————————————————————————————— vocabulary

const insertUnknown: Mutator = (base, rng) => {
  const line = pickInsertLine(base, rng);
  if (line === null) return null;
  const ignorable = rng.chance(0.5);
  const withOp = rng.chance(0.2);
  const type = rng.pick(['future/thing', 'plugin/x-telemetry', 'session/unknown', 'zz', ...(base.read.dialect === 'v0' ? ['system/message', 'developer/message'] : [])]);
  const ins = insertRow(base, line, (seq, time) => envelope(base, type, seq, time, { note: 'from a newer harness', n: seq }, { ...(ignorable ? { ignorable: true } : {}), ...(withOp ? { surfaceOp: 'append' } : {}) }));
  if (!ins) return null;
  let fault: Fault;
  let equivalent: Mutation['equivalent'];
  if (!ignorable) fault = { kind: 'line', line, exact: true };
  else if (withOp && base.read.dialect === 'v0') fault = { kind: 'seq', seq: ins.seq, line };
  else { fault = { kind: 'none' }; equivalent = { seqShift: { at: ins.seq } }; }
  return { mutator: 'insert-unknown', detail: `${ignorable ? 'ignorable' : 'required'} ${type}${withOp ? ' with surfaceOp' : ''} before line ${line}`, text: ins.text, encoding: 'plain', fault, equivalent };
};

const insertLogOnlyWithOp: Mutator = (base, rng) => {
  const line = pickInsertLine(base, rng);
  if (line === null) return null;
  const extra = rng.chance(0.5) ? { surfaceOp: 'append' } : { sourceEventSeqs: [0] };
  const ins = insertRow(base, line, (seq, time) => envelope(base, 'turn/start', seq, time, { turn: 1 }, extra));
  if (!ins) return null;
  return { mutator: 'log-only-with-surface', detail: `turn/start with ${Object.keys(extra)[0]} before line ${line}`, text: ins.text, encoding: 'plain', fault: { kind: 'seq', seq: ins.seq, line } };
};

// ————————————————————————————————————————— 0.2.1-alpha.2 vocabulary (dsh-log-rules V2–V4)

const PLUGIN_TYPES = ['plugin:translator/request', 'plugin:translator/result', 'plugin:test.bridge/entry_1', 'plugin:dsh-reflection/project'];
const PLUGIN_DATA: unknown[] = [{ provider: 'google', text: 'hi', sourceLanguage: 'auto', targetLanguage: 'zh-CN', recipe: 'r' }, ['a', 2], 'note', { requestSeq: 3, text: '你好' }];

/** A subagent/catalog fact of the given payload version and mode (V4.2). */
const catalog = (version: number, mode: string, label?: string) => ({ version, childId: `child-${version}-${mode}`, childCreatedAt: 1_788_000_000_000, mode, ...(label === undefined ? {} : { label }) });
const VALID_CATALOGS = [catalog(0, 'continuable', 'reviewer'), catalog(0, 'one-shot'), catalog(1, 'unknown'), catalog(1, 'continuable', 'x'), catalog(2, 'external', 'ci')];
const INVALID_CATALOGS = [catalog(2, 'continuable', 'x'), catalog(0, 'unknown'), catalog(1, 'continuable'), catalog(1, 'external')];

/**
 * Inserts the vocabulary 0.2.1-alpha.2 added to format 4: plugin records,
 * working-directory changes, catalog facts of every payload version. What is
 * valid under the base's dialect must change nothing a DSH restore shows; the
 * rest must be explained at its line (newer than this app, or a catalog shape).
 */
const dsh021Vocabulary: Mutator = (base, rng) => {
  const line = pickInsertLine(base, rng);
  if (line === null) return null;
  const dialect = base.read.dialect;
  const v0 = dialect === 'v0';
  const variant = rng.pick(['plugin-record', 'plugin-required', 'cwd', 'cwd-relative', 'catalog', 'catalog-newer', 'catalog-invalid'] as const);
  let type: string;
  let data: unknown;
  let extra: Row = {};
  let valid: boolean;
  switch (variant) {
    case 'plugin-record':
    case 'plugin-required':
      type = rng.pick(PLUGIN_TYPES);
      data = rng.pick(PLUGIN_DATA);
      // V3+ keeps an ignorable unknown event opaque even with surface fields; rc.8 checks them (L2.3).
      extra = variant === 'plugin-record' ? { ignorable: true, ...(!v0 && rng.chance(0.2) ? { surfaceOp: 'append' } : {}) } : {};
      valid = variant === 'plugin-record';
      break;
    case 'cwd':
    case 'cwd-relative':
      type = 'working-directory/change';
      data = { cwd: variant === 'cwd' ? rng.pick(['/home/dev/projects/acme-tools/packages/cli', '/tmp', 'C:\\work']) : rng.pick(['packages/cli', '', '~/x']) };
      valid = dialect === 'v4' && variant === 'cwd';
      break;
    default:
      type = 'subagent/catalog';
      data = variant === 'catalog' ? rng.pick(VALID_CATALOGS) : variant === 'catalog-newer' ? catalog(rng.int(3, 9), 'external', 'x') : rng.pick(INVALID_CATALOGS);
      valid = !v0 && variant === 'catalog';
  }
  const ins = insertRow(base, line, (seq, time) => envelope(base, type, seq, time, data, extra));
  if (!ins) return null;
  const detail = `${variant}: ${type} ${JSON.stringify(data)}${extra.ignorable ? ' ignorable' : ''}${extra.surfaceOp ? ' with surfaceOp' : ''} before line ${line}`;
  if (valid) return { mutator: 'dsh021-vocabulary', detail, text: ins.text, encoding: 'plain', fault: { kind: 'none' }, equivalent: { seqShift: { at: ins.seq } } };
  return { mutator: 'dsh021-vocabulary', detail, text: ins.text, encoding: 'plain', fault: { kind: 'line', line, exact: true } };
};

/** Moves a versioned payload to a version this app does not know: newer than the app, at its line (V4.1). */
const payloadVersion: Mutator = (base, rng) => {
  const hit = pickEventLine(base, rng, (r) => (r.type === 'goal/change' || r.type === 'subagent/catalog') && typeof r.data?.version === 'number');
  if (!hit) return null;
  const { line, row } = hit;
  const version = row.data.version + rng.int(1, 5) + (row.type === 'subagent/catalog' ? 2 : 0);
  const edited = { ...row, data: { ...row.data, version } };
  return { mutator: 'payload-version', detail: `line ${line}: ${row.type} version ${row.data.version} → ${version}`, text: replaceLine(base, line, JSON.stringify(edited)), encoding: 'plain', fault: { kind: 'line', line, exact: true } };
};

/** Gives a human prompt one of the attribution-only source kinds of 0.2.1 (V4.2): shown, never an error. */
const SOURCE_KINDS: Row[] = [{ kind: 'working-directory' }, { kind: 'user-question-reply', callId: 'call_1', outcome: 'answered' }, { kind: 'tmux-context' }, { kind: 'user', rpcId: 'rpc-7' }, { kind: 'some-future-kind', extra: [1] }];
const sourceKind: Mutator = (base, rng) => {
  const hit = pickEventLine(base, rng, (r) => r.type === 'user/message' && r.data?.source?.kind === 'user');
  if (!hit) return null;
  const { line, row } = hit;
  const source = rng.pick(SOURCE_KINDS);
  const edited = { ...row, data: { ...row.data, source } };
  return { mutator: 'source-kind', detail: `line ${line}: source ${JSON.stringify(source)}`, text: replaceLine(base, line, JSON.stringify(edited)), encoding: 'plain', fault: { kind: 'none' } };
};

// ————————————————————————————————————————— surface references

const surfaceRefs: Mutator = (base, rng) => {
  const v0 = base.read.dialect === 'v0';
  const [startKey, endKey] = v0 ? ['start', 'end'] : ['startSeq', 'endSeq'];
  const hit = pickEventLine(base, rng, (r) => (r.surfaceOp && typeof r.surfaceOp === 'object') || (Array.isArray(r.sourceEventSeqs) && r.sourceEventSeqs.length > 0 && r.type !== 'assistant/message'));
  if (!hit) return null;
  const { line, row } = hit;
  const seq: number = eventLines(base).seqOf.get(line) ?? row.seq;
  const isReplace = row.surfaceOp && typeof row.surfaceOp === 'object';
  const out: Row = JSON.parse(JSON.stringify(row));
  const sources: unknown[] = Array.isArray(out.sourceEventSeqs) ? out.sourceEventSeqs : [];
  const variants = isReplace
    ? ['missing', 'shadowed', 'future', 'reversed', 'op-shape', 'src-future', 'src-self', 'src-dup', 'src-empty', 'src-bad', 'uncovered', 'range']
    : ['src-future', 'src-self', 'src-dup', 'src-bad', 'range'];
  const variant = rng.pick(variants);
  let reader = false; // the reader, not the fold, rejects it
  switch (variant) {
    case 'missing': {
      // An earlier log-only event: never a surface node.
      const logOnly = base.read.events.filter((e) => e.seq < seq && e.surfaceOp === undefined).map((e) => e.seq);
      if (!logOnly.length) return null;
      out.surfaceOp[rng.chance(0.5) ? startKey : endKey] = rng.pick(logOnly);
      break;
    }
    case 'shadowed': {
      const shadowed = base.fold.surface.replacements.filter((r) => r.seq < seq).flatMap((r) => r.shadowedSeqs);
      if (!shadowed.length) return null;
      out.surfaceOp[rng.chance(0.5) ? startKey : endKey] = rng.pick(shadowed);
      break;
    }
    case 'future':
      out.surfaceOp[rng.chance(0.5) ? startKey : endKey] = rng.pick([seq, seq + 1, seq + rng.int(2, 50), 2 ** 40]);
      break;
    case 'reversed': {
      const { [startKey]: a, [endKey]: b } = out.surfaceOp;
      if (a === b) return null;
      out.surfaceOp = { ...out.surfaceOp, [startKey]: b, [endKey]: a };
      break;
    }
    case 'op-shape':
      out.surfaceOp = rng.pick([
        { ...out.surfaceOp, op: 'Replace' },
        { ...out.surfaceOp, extra: 1 },
        { op: 'replace', [v0 ? 'startSeq' : 'start']: out.surfaceOp[startKey], [v0 ? 'endSeq' : 'end']: out.surfaceOp[endKey] },
        { ...out.surfaceOp, [startKey]: -1 },
        { ...out.surfaceOp, [endKey]: 1.5 },
        'prepend', null, {}, ['replace'],
      ]);
      break;
    case 'src-future': out.sourceEventSeqs = [...sources, seq + rng.int(1, 5)]; break;
    case 'src-self': out.sourceEventSeqs = [...sources, seq]; break;
    case 'src-dup': if (!sources.length) return null; out.sourceEventSeqs = [...sources, rng.pick(sources)]; break;
    case 'src-empty': out.sourceEventSeqs = []; break;
    case 'src-bad': out.sourceEventSeqs = [...sources, rng.pick([-1, 1.5, '3', null, 2 ** 53, true])]; break;
    case 'uncovered': {
      const replaced = base.fold.surface.replacements.find((r) => r.seq === seq);
      if (!replaced) return null;
      const drop = rng.pick(replaced.shadowedSeqs);
      out.sourceEventSeqs = sources.filter((s) => s !== drop);
      break;
    }
    case 'range':
      out.sourceEventSeqs = [...sources, rng.pick([[5, 2], [1], [1, 2, 3], [-1, 2], [0, 2 ** 40]])];
      reader = true;
      break;
  }
  void reader;
  return { mutator: 'surface-refs', detail: `line ${line} (seq ${seq}): ${variant}`, text: replaceLine(base, line, JSON.stringify(out)), encoding: 'plain', fault: { kind: 'seq', seq, line } };
};

// ————————————————————————————————————————— packed rows

const packedRows: Mutator = (base, rng) => {
  const hit = pickEventLine(base, rng, (r) => typeof r.seq0 === 'number');
  if (!hit) return null;
  const { line, row } = hit;
  const out: Row = JSON.parse(JSON.stringify(row));
  const d = out.data;
  const payload = Array.isArray(d.args) ? 'args' : 'texts';
  const variant = rng.int(0, 13);
  switch (variant) {
    case 0: d.dt = d.dt.slice(1); break;
    case 1: d.dt = [...d.dt, 1]; break;
    case 2: d.dt = d.dt.map((x: number, i: number) => (i === 0 ? 0.5 : x)); if (!d.dt.length) return null; break;
    case 3: d[payload] = []; break;
    case 4: d[payload] = [...d[payload].slice(1), 7]; break;
    case 5: d.extra = true; break;
    case 6: delete d.turn; break;
    case 7: out.type = out.type === 'tool-call-chunks' ? 'text-chunks' : 'tool-call-chunks'; break;
    case 8: out.seq0 -= rng.int(1, 2); break;
    case 9: out.seq0 += rng.int(1, 3); break;
    case 10: out.time0 = 'soon'; break;
    case 11: out.time = out.time0; break;
    case 12: out.seq0 = 1.5; break;
    default: d.dt = d.dt.map(() => 2 ** 53); if (!d.dt.length) return null;
  }
  return { mutator: 'packed-rows', detail: `line ${line} variant ${variant}`, text: replaceLine(base, line, JSON.stringify(out)), encoding: 'plain', fault: { kind: 'line', line, exact: true } };
};

// ————————————————————————————————————————— size

/** A string of `n` bytes of varied, escapable text (quotes, backslashes, non-ASCII). */
function bulk(rng: Rng, n: number): string {
  const unit = 'lorem "ipsum" \\ dolor — sit ämet 😀 \t';
  const reps = Math.max(1, Math.ceil(n / enc.encode(unit).length));
  return unit.repeat(reps) + rng.hex(8);
}

const hugeLine: Mutator = (base, rng, options) => {
  const line = pickInsertLine(base, rng);
  if (line === null) return null;
  // Log-uniform, so most huge lines are merely big and a few are enormous.
  const [lo, hi] = options.hugeBytes;
  const size = Math.round(Math.exp(Math.log(lo) + rng.float() * (Math.log(hi) - Math.log(lo))));
  const variant = rng.pick(['ignorable', 'garbage', 'blank', 'message'] as const);
  if (variant === 'garbage' || variant === 'blank') {
    const lines = base.lines.slice();
    const text = variant === 'blank' ? ' '.repeat(size) : 'x'.repeat(size);
    lines.splice(line - 1, 0, text);
    const fault: Fault = variant === 'blank' ? { kind: 'none' } : { kind: 'line', line, exact: true };
    return { mutator: 'huge-line', detail: `${variant} line of ${size} bytes before line ${line}`, text: joinLines(base, lines), encoding: 'plain', fault, equivalent: variant === 'blank' ? { sameEvents: true } : undefined };
  }
  if (variant === 'message' && !base.numbered) {
    const ins = insertRow(base, line, (seq, time) => envelope(base, 'user/message', seq, time, { id: `huge-${seq}`, role: 'user', content: [{ type: 'text', text: bulk(rng, size) }], source: { kind: 'user' } }, { surfaceOp: 'append' }));
    if (!ins) return null;
    return { mutator: 'huge-line', detail: `user/message of ${size} bytes before line ${line}`, text: ins.text, encoding: 'plain', fault: { kind: 'maybe' } };
  }
  const ins = insertRow(base, line, (seq, time) => envelope(base, 'blob/attached', seq, time, { text: bulk(rng, size) }, { ignorable: true }));
  if (!ins) return null;
  return { mutator: 'huge-line', detail: `ignorable event of ${size} bytes before line ${line}`, text: ins.text, encoding: 'plain', fault: { kind: 'none' }, equivalent: { seqShift: { at: ins.seq } } };
};

/** JSON text nested `depth` levels deep (arrays, objects or both). */
export function nested(depth: number, shape: 'array' | 'object' | 'mixed'): string {
  let open = '';
  let close = '';
  const openOf = (i: number) => (shape === 'array' || (shape === 'mixed' && i % 2) ? '[' : '{"a":');
  const closeOf = (i: number) => (shape === 'array' || (shape === 'mixed' && i % 2) ? ']' : '}');
  const opens: string[] = [];
  const closes: string[] = [];
  for (let i = 0; i < depth; i++) { opens.push(openOf(i)); closes.push(closeOf(i)); }
  open = opens.join('');
  close = closes.reverse().join('');
  return open + '1' + close;
}

const deepNesting: Mutator = (base, rng, options) => {
  const line = pickInsertLine(base, rng);
  if (line === null) return null;
  // `depth` levels inside data; the row adds two (row object, data value wrapper).
  const depth = rng.pick([3, 50, 300, MAX_ROW_DEPTH - 10, MAX_ROW_DEPTH + 10, 5000, 100_000, 1_000_000].filter((d) => d <= (options.maxDepth ?? 1e6)));
  const shape = rng.pick(['array', 'object', 'mixed'] as const);
  const tooDeep = depth > MAX_ROW_DEPTH;
  const variant = rng.pick(['opaque', 'message', 'unclosed'] as const);
  const deep = nested(depth, shape);
  if (variant === 'unclosed') {
    const lines = base.lines.slice();
    lines.splice(line - 1, 0, `{"type":"x/y","seq":0,"time":0,"data":${deep.slice(0, deep.length / 2)}`);
    return { mutator: 'deep-nesting', detail: `unclosed ${shape} nesting ${depth} before line ${line}`, text: joinLines(base, lines), encoding: 'plain', fault: { kind: 'line', line, exact: true } };
  }
  const placeholder = '"@@DEEP@@"';
  let ins: { text: string; seq: number } | null;
  if (variant === 'message' && !base.numbered) {
    ins = insertRow(base, line, (seq, time) => JSON.stringify(envelope(base, 'user/message', seq, time, { id: `deep-${seq}`, role: 'user', content: [{ type: 'text', text: 'deep', meta: '@@DEEP@@' }], source: { kind: 'user' } }, { surfaceOp: 'append' })).replace(placeholder, deep));
  } else {
    ins = insertRow(base, line, (seq, time) => JSON.stringify(envelope(base, 'deep/opaque', seq, time, '@@DEEP@@', { ignorable: true })).replace(placeholder, deep));
  }
  if (!ins) return null;
  // A new surface node may leave a later replace uncovered: only the opaque event is harmless.
  const fault: Fault = tooDeep ? { kind: 'line', line, exact: true } : variant === 'message' ? { kind: 'maybe' } : { kind: 'none' };
  const equivalent = !tooDeep && variant !== 'message' ? { seqShift: { at: ins.seq } } : undefined;
  return { mutator: 'deep-nesting', detail: `${variant} ${shape} nesting ${depth} before line ${line}`, text: ins.text, encoding: 'plain', fault, equivalent };
};


// ————————————————————————————————————————— hostile sizes (docs/diagnostics.md)

const longest = new WeakMap<FuzzBase, number>();
function longestLine(base: FuzzBase): number {
  let n = longest.get(base);
  if (n === undefined) { n = base.lines.reduce((m, l) => Math.max(m, l.length), 0); longest.set(base, n); }
  return n;
}

/** Log-uniform in [lo, hi]: most sizes modest, a few enormous. */
function logUniform(rng: Rng, lo: number, hi: number): number {
  return Math.round(Math.exp(Math.log(lo) + rng.float() * (Math.log(Math.max(lo, hi)) - Math.log(lo))));
}

/**
 * Whether a bad row inserted at `line` leaves the base's events as they are:
 * nothing after it, or a later turn/end that commits the region (L1.8).
 */
function badRowKeepsEvents(base: FuzzBase, line: number): boolean {
  const { origins, events } = base.read;
  let after = false;
  for (let i = 0; i < events.length; i++) {
    if (origins[i].line < line) continue;
    after = true;
    if (events[i].type === 'turn/end') return true;
  }
  return !after;
}

/** The opening of a user/message whose text never ends: what a runaway writer leaves. */
const runawayOpen = (seq: number) => `{"type":"user/message","seq":${seq},"time":1,"surfaceOp":"append","data":{"id":"runaway","role":"user","content":[{"type":"text","text":"`;

/** A line over the reader's line limit (set low): skipped unread, reported, and the rest reads on. */
const giantLine: Mutator = (base, rng, options) => {
  // Low, but above every line of the base: only the giant line is over it.
  const limit = Math.max(rng.pick([256, 4096, 65_536]), longestLine(base) + 1);
  const size = logUniform(rng, limit + 1, Math.max(limit + 2, Math.min(options.hugeBytes[1], limit * 256)));
  const where = rng.pick(['middle', 'end', 'partial'] as const);
  if (where !== 'middle' && !base.endsWithNewline) return null;
  const line = where === 'middle' ? pickInsertLine(base, rng) : base.lines.length + 1;
  if (line === null) return null;
  const next = base.read.events.length ? base.read.events[base.read.events.length - 1].seq + 1 : 0;
  const kind = rng.pick(['runaway', 'garbage', 'spaces', 'escapes'] as const);
  const body = kind === 'runaway' ? runawayOpen(next) + 'a'.repeat(size) + (rng.chance(0.5) ? '"}],"source":{"kind":"user"}}}' : '')
    : kind === 'garbage' ? 'x'.repeat(size)
    : kind === 'spaces' ? ' '.repeat(size)
    : `{"type":"x/y","ignorable":true,"seq":${next},"time":1,"data":"${'\\u00e4'.repeat(Math.ceil(size / 6))}"}`;
  const lines = base.lines.slice();
  lines.splice(line - 1, 0, body);
  const text = where === 'partial' ? base.lines.join('\n') + '\n' + body : joinLines(base, lines);
  return {
    mutator: 'giant-line', detail: `${kind} line of ${body.length} chars ${where === 'middle' ? `before line ${line}` : where === 'end' ? 'at the end' : 'as a partial last line'}, limit ${limit}`,
    // The runner checks the read holds no copy of the giant line (memory bounded by the limit, not the line).
    text, encoding: 'plain', maxLineChars: limit, expands: body.length,
    fault: { kind: 'line', line, exact: true },
    equivalent: badRowKeepsEvents(base, line) ? { sameEvents: true } : undefined,
  };
};

/** One string field of an event made huge (under the line limit): nothing may crash or stall. */
const giantString: Mutator = (base, rng, options) => {
  const hit = pickEventLine(base, rng, (r) => r.data !== null && typeof r.data === 'object');
  if (!hit) return null;
  const size = logUniform(rng, 10_000, options.hugeBytes[1]);
  const row = JSON.parse(JSON.stringify(hit.row)) as Row;
  // The first string found walking the payload (a message text, a tool argument, an id).
  const grow = (v: any): boolean => {
    if (!v || typeof v !== 'object') return false;
    for (const k of Object.keys(v)) {
      if (typeof v[k] === 'string' && k !== 'type' && k !== 'role' && k !== 'kind') { v[k] = bulk(rng, size); return true; }
      if (grow(v[k])) return true;
    }
    return false;
  };
  if (!grow(row.data)) return null;
  return { mutator: 'giant-string', detail: `line ${hit.line}: a ${size}-byte string`, text: replaceLine(base, hit.line, JSON.stringify(row)), encoding: 'plain', fault: { kind: 'maybe' } };
};

/** Hundreds of thousands to millions of blank lines in one place: skipped, and the log is the same. */
const blankLines: Mutator = (base, rng, options) => {
  const n = logUniform(rng, 1000, Math.min(3_000_000, options.hugeBytes[1]));
  // After line `at` (never after a partial last line, which would complete it).
  const at = rng.int(1, base.lines.length - (base.endsWithNewline ? 0 : 1));
  if (at < 1) return null;
  const lines = base.lines.slice();
  lines.splice(at, 0, '\n'.repeat(n - 1));
  return { mutator: 'blank-lines', detail: `${n} blank lines after line ${at}`, text: joinLines(base, lines), encoding: 'plain', fault: { kind: 'none' }, equivalent: { sameEvents: true }, expands: n };
};

/** Literals past 2^53 (and past a double's range) where a seq or a time belongs. */
const BIG_NUMBERS = ['9007199254740992', '9007199254740993', '-9007199254740993', '18446744073709551616', '123456789012345678901234567890', '1e300', '1e400', '-1e400'];

const bigNumbers: Mutator = (base, rng) => {
  const hit = pickEventLine(base, rng, (r) => ['seq', 'time', 'seq0', 'time0'].some((k) => typeof r[k] === 'number'));
  if (!hit) return null;
  const key = rng.pick(['seq', 'time', 'seq0', 'time0'].filter((k) => typeof hit.row[k] === 'number'));
  const literal = rng.pick(BIG_NUMBERS);
  const text = JSON.stringify({ ...hit.row, [key]: '@@BIG@@' }).replace('"@@BIG@@"', literal);
  return { mutator: 'big-numbers', detail: `line ${hit.line}: ${key} := ${literal}`, text: replaceLine(base, hit.line, text), encoding: 'plain', fault: { kind: 'line', line: hit.line, exact: true } };
};

/**
 * zstd or gzip input that expands: a giant line written as runs (RLE blocks,
 * deflate copies), a run of blank lines, or (zstd) a frame that asks for a
 * window or block bigger than decoders allow. Memory must stay bounded.
 */
const expanding: Mutator = (base, rng, options) => {
  const [lo, hi] = options.bombBytes ?? options.hugeBytes;
  const gzip = rng.chance(0.3);
  const variant = gzip ? rng.pick(['long-line', 'blank-run'] as const) : rng.pick(['long-line', 'long-line', 'blank-run', 'window', 'block'] as const);
  if (!base.endsWithNewline) return null;
  const lines = base.lines;
  const at = variant === 'long-line' && rng.chance(0.5) ? rng.int(2, lines.length + 1) : lines.length + 1;
  const before = lines.slice(0, at - 1).map((l) => l + '\n').join('');
  const after = lines.slice(at - 1).map((l) => l + '\n').join('');
  const next = base.read.events.length ? base.read.events[base.read.events.length - 1].seq + 1 : 0;
  const encodeAll = (pieces: RunPiece[]): Uint8Array => (gzip ? gzipRuns(pieces) : concatBytes([zstdFrame([enc.encode(before)]), zstdFrame(pieces.length ? pieces : [new Uint8Array(0)], { windowLog: rng.pick([17, 20]) })]));
  const bodyPieces = (pieces: RunPiece[]): RunPiece[] => (gzip ? [enc.encode(before), ...pieces] : pieces);
  const encoding = gzip ? 'gzip' : 'zstd';
  switch (variant) {
    case 'long-line': {
      const limit = Math.max(rng.pick([4096, 1 << 20]), longestLine(base) + 1);
      const size = Math.max(limit + 1, logUniform(rng, lo, hi));
      const open = runawayOpen(next);
      const partial = at > lines.length && rng.chance(0.5);
      const pieces: RunPiece[] = [enc.encode(open), { repeat: 0x61, count: size }, ...(partial ? [] : [enc.encode('"}],"source":{"kind":"user"}}}\n' + after)])];
      return {
        mutator: 'expanding', detail: `${encoding}: a ${size + open.length}-byte line ${partial ? 'left open at the end' : `before line ${at}`}, limit ${limit}`,
        bytes: encodeAll(bodyPieces(pieces)), encoding, prefixText: before, maxLineChars: limit, expands: size,
        fault: { kind: 'line', line: at, exact: true }, equivalent: badRowKeepsEvents(base, at) ? { sameEvents: true } : undefined,
      };
    }
    case 'blank-run': {
      // Each blank line is still a line to step over: kept to a few million.
      const n = Math.min(logUniform(rng, lo, hi), 4_000_000);
      return {
        mutator: 'expanding', detail: `${encoding}: ${n} blank lines at the end`, bytes: encodeAll(bodyPieces([{ repeat: 0x0a, count: n }])), encoding,
        prefixText: before, expands: n, fault: { kind: 'none' }, equivalent: { sameEvents: true },
      };
    }
    default: {
      // A frame whose header asks for a 2 GiB window (declared size or descriptor), or an RLE block over 128 KiB.
      const header = variant === 'block'
        ? Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0x00, (21 - 10) << 3)
        : rng.chance(0.5) ? Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0xa0, 0x00, 0x00, 0x00, 0x80) : Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0x00, (31 - 10) << 3);
      const size = variant === 'block' ? 1 << 20 : 1 << 17;
      const block = (size << 3) | (1 << 1) | 1;
      const frame = concatBytes([header, Uint8Array.of(block & 0xff, (block >> 8) & 0xff, (block >> 16) & 0xff, 0x0a)]);
      return {
        mutator: 'expanding', detail: `zstd: a frame asking for ${variant === 'block' ? 'a 1 MiB block' : 'a 2 GiB window'} at the end`,
        bytes: concatBytes([zstdFrame([enc.encode(before)]), frame]), encoding: 'zstd', prefixText: before,
        fault: { kind: 'line', line: at, exact: false },
      };
    }
  }
};

// ————————————————————————————————————————— encodings

/** Whole-line batches, the way DSH writes a frame per flush. */
function batches(base: FuzzBase, rng: Rng): string[] {
  const out: string[] = [];
  let i = 0;
  const lines = base.lines;
  while (i < lines.length) {
    const n = rng.int(1, Math.max(1, Math.ceil(lines.length / 3)));
    const part = lines.slice(i, i + n);
    i += n;
    const last = i >= lines.length;
    out.push(part.join('\n') + (last && !base.endsWithNewline ? '' : '\n'));
  }
  return out.length ? out : [''];
}

const zstd: Mutator = (base, rng) => {
  const texts = batches(base, rng);
  const frames = texts.map((t) => zstdRawFrame(enc.encode(t)));
  const starts: number[] = [];
  let o = 0;
  for (const f of frames) { starts.push(o); o += f.length; }
  const whole = concatBytes(frames);
  const firstLine = (j: number) => texts.slice(0, j).reduce((n, t) => n + t.split('\n').length - 1, 0) + 1;
  const prefix = (j: number) => texts.slice(0, j).join('');
  const variant = rng.pick(['clean', 'skippable', 'truncate', 'magic', 'block-type', 'trailing', 'flip'] as const);
  const j = rng.int(0, frames.length - 1);
  switch (variant) {
    case 'clean':
      return { mutator: 'zstd', detail: `${frames.length} frames`, bytes: whole, encoding: 'zstd', fault: { kind: 'none' }, equivalent: { sameEvents: true } };
    case 'skippable': {
      const parts = frames.slice();
      parts.splice(j + 1, 0, zstdSkippableFrame(enc.encode('skip me'), rng.int(0, 15)));
      return { mutator: 'zstd', detail: `skippable frame after frame ${j}`, bytes: concatBytes(parts), encoding: 'zstd', fault: { kind: 'none' }, equivalent: { sameEvents: true } };
    }
    case 'truncate': {
      const cut = rng.int(starts[j] + 1, starts[j] + frames[j].length);
      const clean = cut === starts[j] + frames[j].length;
      return { mutator: 'zstd', detail: `truncate at byte ${cut} (frame ${j})`, bytes: whole.subarray(0, cut), encoding: 'zstd', prefixText: prefix(clean ? j + 1 : j), fault: clean ? { kind: 'none' } : { kind: 'line', line: firstLine(j), exact: false } };
    }
    case 'magic': {
      const bytes = whole.slice();
      bytes[starts[j] + rng.int(0, 3)] ^= rng.int(1, 255);
      return { mutator: 'zstd', detail: `bad magic of frame ${j}`, bytes, encoding: 'zstd', prefixText: prefix(j), fault: j === 0 ? { kind: 'maybe' } : { kind: 'line', line: firstLine(j), exact: false } };
    }
    case 'block-type': {
      const bytes = whole.slice();
      bytes[starts[j] + 9] |= 0b110; // reserved block type 3
      return { mutator: 'zstd', detail: `reserved block type in frame ${j}`, bytes, encoding: 'zstd', prefixText: prefix(j), fault: { kind: 'line', line: firstLine(j), exact: false } };
    }
    case 'trailing': {
      const junk = enc.encode(rng.pick(['garbage', '\n', '{"type":"x"}', '\u0000\u0000\u0000\u0000']));
      return { mutator: 'zstd', detail: 'junk after the last frame', bytes: concatBytes([whole, junk]), encoding: 'zstd', prefixText: texts.join(''), fault: { kind: 'line', line: firstLine(frames.length), exact: false } };
    }
    default: {
      const bytes = whole.slice();
      const at = rng.int(starts[j], starts[j] + frames[j].length - 1);
      bytes[at] ^= rng.int(1, 255);
      return { mutator: 'zstd', detail: `flip byte ${at} (frame ${j})`, bytes, encoding: 'zstd', prefixText: prefix(j), fault: { kind: 'maybe' } };
    }
  }
};

const gzip: Mutator = (base, rng) => {
  const whole = gzipStored(base.bytes);
  const variant = rng.pick(['clean', 'truncate', 'crc', 'header'] as const);
  switch (variant) {
    case 'clean':
      return { mutator: 'gzip', detail: 'stored gzip', bytes: whole, encoding: 'gzip', fault: { kind: 'none' }, equivalent: { sameEvents: true } };
    case 'truncate': {
      const cut = rng.int(2, whole.length - 1);
      return { mutator: 'gzip', detail: `truncate at byte ${cut} of ${whole.length}`, bytes: whole.subarray(0, cut), encoding: 'gzip', prefixText: '', fault: { kind: 'line', line: 1, exact: false } };
    }
    case 'crc': {
      const bytes = whole.slice();
      bytes[bytes.length - 8 + rng.int(0, 7)] ^= rng.int(1, 255);
      return { mutator: 'gzip', detail: 'bad CRC/ISIZE trailer', bytes, encoding: 'gzip', prefixText: '', fault: { kind: 'line', line: 1, exact: false } };
    }
    default: {
      const bytes = whole.slice();
      bytes[2] = 7; // not deflate
      return { mutator: 'gzip', detail: 'bad compression method', bytes, encoding: 'gzip', prefixText: '', fault: { kind: 'line', line: 1, exact: false } };
    }
  }
};

// ————————————————————————————————————————— harmless rewrites

function spaced(v: unknown, rng: Rng): string {
  if (Array.isArray(v)) return '[ ' + v.map((x) => spaced(x, rng)).join(' , ') + ' ]';
  if (v && typeof v === 'object') {
    const entries = Object.entries(v);
    if (rng.chance(0.5)) entries.reverse();
    return '{ ' + entries.map(([k, x]) => `${JSON.stringify(k)} : ${spaced(x, rng)}`).join(' , ') + ' }';
  }
  return JSON.stringify(v);
}

const harmless: Mutator = (base, rng) => {
  const variant = rng.pick(['crlf', 'bom', 'blank', 'respace', 'pad'] as const);
  let text: string;
  switch (variant) {
    case 'crlf': text = base.lines.map((l) => l + '\r\n').join(''); break;
    case 'bom': text = '\ufeff' + base.text; break;
    case 'blank': {
      const lines = base.lines.slice();
      for (let k = rng.int(1, 4); k > 0; k--) lines.splice(rng.int(0, lines.length), 0, rng.pick(['', ' ', '\t', '  \t ']));
      text = joinLines(base, lines);
      break;
    }
    case 'respace': text = joinLines(base, base.lines.map((l) => { const r = parseRow(l); return r && rng.chance(0.5) ? spaced(r, rng) : l; })); break;
    default: text = joinLines(base, base.lines.map((l) => (rng.chance(0.3) ? l + '   ' : l)));
  }
  return { mutator: 'harmless', detail: variant, text, encoding: 'plain', fault: { kind: 'none' }, equivalent: { sameEvents: true } };
};

// ————————————————————————————————————————— registry

export const MUTATORS: Readonly<Record<string, { weight: number; mutate: Mutator }>> = {
  truncate: { weight: 10, mutate: truncate },
  'flip-bytes': { weight: 10, mutate: flipBytes },
  'drop-line': { weight: 5, mutate: dropLine },
  'duplicate-line': { weight: 4, mutate: duplicateLine },
  'swap-lines': { weight: 4, mutate: swapLines },
  renumber: { weight: 5, mutate: renumberSeqs },
  'break-json': { weight: 8, mutate: breakJson },
  'remove-field': { weight: 8, mutate: removeField },
  'wrong-type': { weight: 8, mutate: wrongType },
  'insert-unknown': { weight: 6, mutate: insertUnknown },
  'log-only-with-surface': { weight: 2, mutate: insertLogOnlyWithOp },
  'dsh021-vocabulary': { weight: 5, mutate: dsh021Vocabulary },
  'payload-version': { weight: 2, mutate: payloadVersion },
  'source-kind': { weight: 2, mutate: sourceKind },
  'surface-refs': { weight: 10, mutate: surfaceRefs },
  'packed-rows': { weight: 5, mutate: packedRows },
  'huge-line': { weight: 2, mutate: hugeLine },
  'deep-nesting': { weight: 3, mutate: deepNesting },
  zstd: { weight: 5, mutate: zstd },
  gzip: { weight: 2, mutate: gzip },
  harmless: { weight: 4, mutate: harmless },
  'giant-line': { weight: 2, mutate: giantLine },
  'giant-string': { weight: 1, mutate: giantString },
  'blank-lines': { weight: 1, mutate: blankLines },
  'big-numbers': { weight: 2, mutate: bigNumbers },
  expanding: { weight: 1, mutate: expanding },
};

/** Picks a mutator by weight and applies it; retries when it does not apply to this base. */
export function mutate(base: FuzzBase, rng: Rng, options: MutateOptions, only?: string): Mutation {
  const names = only ? [only] : Object.keys(MUTATORS);
  const total = names.reduce((n, k) => n + MUTATORS[k].weight, 0);
  for (let tries = 0; tries < 50; tries++) {
    let roll = rng.float() * total;
    let name = names[names.length - 1];
    for (const k of names) { roll -= MUTATORS[k].weight; if (roll < 0) { name = k; break; } }
    const m = MUTATORS[name].mutate(base, rng, options);
    if (m) return m;
  }
  return truncateAt(base, base.bytes.length); // the identity: always applies
}

/** Decoded text of plain bytes, BOM kept (as the reader sees it). */
export const decodePlain = (bytes: Uint8Array): string => dec.decode(bytes);
