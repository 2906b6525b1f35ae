// Fields: a required one removed, or given a value of the wrong type.
import { type FuzzBase } from '../base.ts';
import type { Fault, Mutator } from '../mutation.ts';
import { eventLines, parseRow, pickEventLine, replaceLine, type Row } from '../rows.ts';

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

export const removeField: Mutator = (base, rng) => {
  const pick = pickRequiredField(base, rng);
  if (!pick) return null;
  const { line, row, path } = pick;
  const edited = editPath(row, path, (parent, key) => { delete parent[key]; });
  if (!edited) return null;
  return { mutator: 'remove-field', detail: `line ${line}: remove ${path}`, text: replaceLine(base, line, JSON.stringify(edited)), encoding: 'plain', fault: faultFor(base, line, path, row) };
};

const WRONG_VALUES: unknown[] = [null, [], 'x', '', -1, 0, 1.5, {}, true, [1], { kind: 7 }];

export const wrongType: Mutator = (base, rng) => {
  const pick = pickRequiredField(base, rng);
  if (!pick) return null;
  const { line, row, path } = pick;
  const value = rng.pick(WRONG_VALUES);
  const edited = editPath(row, path, (parent, key) => { parent[key] = value; });
  if (!edited) return null;
  // A wrong value may still be a valid one (turn 0 vs 1, an empty string): anything may follow, but nothing may crash.
  return { mutator: 'wrong-type', detail: `line ${line}: ${path} := ${JSON.stringify(value)}`, text: replaceLine(base, line, JSON.stringify(edited)), encoding: 'plain', fault: { kind: 'maybe' } };
};
