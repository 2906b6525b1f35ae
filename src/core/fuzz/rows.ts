// Reading and rewriting a base log's rows: the helpers every mutator family uses.
import type { Rng } from '../generate/prng.ts';
import { joinLines, type FuzzBase } from './base.ts';
import { remapRowSeqs } from '../log/seq-refs.ts';

export type Row = Record<string, any>;
export const enc = new TextEncoder();
export const dec = new TextDecoder('utf-8', { ignoreBOM: true });

export function parseRow(line: string | undefined): Row | null {
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
export function eventLines(base: FuzzBase) {
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

export function pickEventLine(base: FuzzBase, rng: Rng, filter?: (row: Row, line: number) => boolean): { line: number; row: Row } | null {
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

export function replaceLine(base: FuzzBase, line: number, text: string | string[]): string {
  const lines = base.lines.slice();
  lines.splice(line - 1, 1, ...(Array.isArray(text) ? text : [text]));
  return joinLines(base, lines);
}

/** Line number (1-based) of a byte offset in the base. */
export function lineAtByte(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < bytes.length; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

export function lineByteRange(base: FuzzBase, line: number): [number, number] {
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

/** Moves every seq reference ≥ at by `by` (the one table of them: log/seq-refs.ts). */
function shiftRow(row: Row, at: number, by = 1): Row {
  return remapRowSeqs(row, (s) => (s >= at ? s + by : s)).row;
}

/** Inserts one row before line `line`, shifting every later seq and reference. */
export function insertRow(base: FuzzBase, line: number, make: (seq: number, time: number) => Row | string): { text: string; seq: number } | null {
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

export function envelope(base: FuzzBase, type: string, seq: number, time: number, data: unknown, extra: Row = {}): Row {
  return base.numbered ? { type, data, ...extra } : { type, seq, time, data, ...extra };
}

export const pickInsertLine = (base: FuzzBase, rng: Rng) => {
  const { lines } = eventLines(base);
  return lines.length ? (rng.chance(0.1) ? base.lines.length + 1 : rng.pick(lines)) : null;
};

/** Decoded text of plain bytes, BOM kept (as the reader sees it). */
export const decodePlain = (bytes: Uint8Array): string => dec.decode(bytes);
