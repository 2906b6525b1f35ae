import type { LogEvent } from './types.ts';

/**
 * Packed chunk rows (dsh-log-rules L1.6c, V0/V1) and embedded stream records (L1.6d,
 * V2+) share one encoding: a run of deltas with a start time and gaps. Both
 * expand here, so the two dialects cannot drift apart.
 */

const TEXT_KEYS = ['turn', 'step', 'index', 'dt', 'texts'];
const TOOL_KEYS = ['turn', 'step', 'index', 'id', 'dt', 'args'];
const TOOL_KEYS_NAMED = [...TOOL_KEYS, 'name'];

export type Expansion = { ok: true; events: LogEvent[] } | { ok: false; reason: string };

const isSafeInt = Number.isSafeInteger;
const isSeq = (v: unknown): v is number => isSafeInt(v) && (v as number) >= 0 && !Object.is(v, -0);

function sameKeys(obj: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(obj);
  return own.length === keys.length && keys.every((k) => Object.hasOwn(obj, k));
}

/** Member times: time0, time0+dt[0], time0+dt[0]+dt[1], … (gaps may be negative). */
function memberTimes(time0: number, dt: unknown, members: number): number[] | string {
  if (!Array.isArray(dt) || dt.length !== members - 1) return `dt must have ${members - 1} entries (members − 1)`;
  const times = [time0];
  let t = time0;
  for (const gap of dt) {
    if (!isSafeInt(gap)) return 'dt entries must be safe integers';
    t += gap;
    if (!isSafeInt(t)) return 'a reconstructed time is not a safe integer';
    times.push(t);
  }
  return times;
}

function nonEmptyStrings(v: unknown): v is string[] {
  return Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === 'string');
}

/**
 * A validated packed row before expansion: a run of `assistant/chunk`
 * deltas with seqs seq0…seq0+n-1. A streaming load walks a run in bulk and
 * never makes its member events unless someone asks for one (`runMember`).
 */
export interface PackedRun {
  rowType: string;
  seq0: number;
  times: number[];
  turn: number;
  step: number;
  index: number;
  pieces: string[];
  /** The row's data (id and name of a tool-call run). */
  data: Record<string, unknown>;
}

export type RunCheck = { ok: true; run: PackedRun } | { ok: false; reason: string };

/** Validates one packed row (L1.6c) without expanding it. */
export function checkPackedRow(row: Record<string, unknown>): RunCheck {
  if (!sameKeys(row, ['type', 'seq0', 'time0', 'data'])) return { ok: false, reason: 'envelope keys must be exactly type, seq0, time0, data' };
  const { type, seq0, time0 } = row;
  const data = row.data as Record<string, unknown>;
  if (!isSeq(seq0)) return { ok: false, reason: 'seq0 must be a non-negative safe integer' };
  if (!isSafeInt(time0)) return { ok: false, reason: 'time0 must be a safe integer' };
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { ok: false, reason: 'data must be an object' };
  const isTool = type === 'tool-call-chunks';
  const keysOk = isTool ? sameKeys(data, Object.hasOwn(data, 'name') ? TOOL_KEYS_NAMED : TOOL_KEYS) : sameKeys(data, TEXT_KEYS);
  if (!keysOk) return { ok: false, reason: `data keys do not match a ${type} row` };
  const { turn, step, index } = data;
  if (!isSafeInt(turn) || !isSafeInt(step) || !isSafeInt(index)) return { ok: false, reason: 'turn, step and index must be safe integers' };
  const payload = isTool ? data.args : data.texts;
  if (!nonEmptyStrings(payload)) return { ok: false, reason: `${isTool ? 'args' : 'texts'} must be a non-empty string array` };
  if (isTool && (typeof data.id !== 'string' || (Object.hasOwn(data, 'name') && typeof data.name !== 'string'))) {
    return { ok: false, reason: 'id and name must be strings' };
  }
  const times = memberTimes(time0 as number, data.dt, payload.length);
  if (typeof times === 'string') return { ok: false, reason: times };
  if (!isSafeInt((seq0 as number) + payload.length - 1)) return { ok: false, reason: 'a reconstructed seq is not safe' };
  return { ok: true, run: { rowType: type as string, seq0: seq0 as number, times, turn: turn as number, step: step as number, index: index as number, pieces: payload, data } };
}

/** Member `k` of a run as the `assistant/chunk` event it stands for. */
export function runMember(run: PackedRun, k: number): LogEvent {
  return {
    type: 'assistant/chunk',
    seq: run.seq0 + k,
    time: run.times[k],
    data: { turn: run.turn, step: run.step, chunk: deltaChunk(run.rowType, run.index, run.pieces[k], run.data) },
  };
}

/** Expands one packed row into `assistant/chunk` events with seqs seq0+k. */
export function expandPackedRow(row: Record<string, unknown>): Expansion {
  const check = checkPackedRow(row);
  if (!check.ok) return check;
  const { run } = check;
  return { ok: true, events: run.pieces.map((_piece, k) => runMember(run, k)) };
}

/** The chunk type of every member of a packed row (or stream record) of each type. */
export const PACKED_DELTA_TYPES: Readonly<Record<string, string>> = {
  'text-chunks': 'text-delta',
  'reasoning-chunks': 'reasoning-delta',
  'tool-call-chunks': 'tool-call-delta',
};

function deltaChunk(type: string, index: number, piece: string, data: Record<string, unknown>): Record<string, unknown> {
  if (type !== 'tool-call-chunks') return { type: PACKED_DELTA_TYPES[type], index, text: piece };
  const chunk: Record<string, unknown> = { type: PACKED_DELTA_TYPES[type], index, id: data.id };
  if (Object.hasOwn(data, 'name')) chunk.name = data.name;
  chunk.argumentsDelta = piece;
  return chunk;
}

/** A chunk of an embedded stream with its reconstructed time (L1.6d). */
export interface StreamChunk {
  time: number;
  chunk: Record<string, unknown>;
}

/**
 * Expands `assistant/message.data.stream` / `assistant/attempt.data.stream`
 * into timed chunks. Returns a reason string when a record is malformed.
 */
export function expandStream(stream: unknown): StreamChunk[] | string {
  if (!Array.isArray(stream)) return 'stream must be an array';
  const out: StreamChunk[] = [];
  for (let r = 0; r < stream.length; r++) {
    const rec = stream[r] as Record<string, unknown>;
    if (typeof rec !== 'object' || rec === null) return `stream[${r}] is not an object`;
    if (rec.type === 'chunk') {
      if (!sameKeys(rec, ['type', 'time', 'chunk']) || !isSafeInt(rec.time)) return `stream[${r}] chunk record must be exactly {type,time,chunk}`;
      out.push({ time: rec.time as number, chunk: rec.chunk as Record<string, unknown> });
      continue;
    }
    const isTool = rec.type === 'tool-call-chunks';
    if (!isTool && rec.type !== 'text-chunks' && rec.type !== 'reasoning-chunks') return `stream[${r}] has unknown record type ${String(rec.type)}`;
    const keys = isTool ? ['type', 'time0', 'index', 'dt', 'id', 'args', ...(Object.hasOwn(rec, 'name') ? ['name'] : [])] : ['type', 'time0', 'index', 'dt', 'texts'];
    if (!sameKeys(rec, keys)) return `stream[${r}] keys do not match a ${String(rec.type)} record`;
    const payload = isTool ? rec.args : rec.texts;
    if (!nonEmptyStrings(payload)) return `stream[${r}] ${isTool ? 'args' : 'texts'} must be a non-empty string array`;
    if (!isSafeInt(rec.time0) || !isSafeInt(rec.index)) return `stream[${r}] time0 and index must be safe integers`;
    const times = memberTimes(rec.time0 as number, rec.dt, payload.length);
    if (typeof times === 'string') return `stream[${r}] ${times}`;
    payload.forEach((piece, k) => out.push({ time: times[k], chunk: deltaChunk(rec.type as string, rec.index as number, piece, rec) }));
  }
  return out;
}
