// Section ids (L…, V…) are those of docs/dsh-log-rules.md.
// Vocabulary: unknown and log-only types, and the 0.2.1-alpha.2 catalog, payload versions and source kinds.
import type { Fault, Mutation, Mutator } from '../mutation.ts';
import { envelope, insertRow, pickEventLine, pickInsertLine, replaceLine, type Row } from '../rows.ts';

export const insertUnknown: Mutator = (base, rng) => {
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

export const insertLogOnlyWithOp: Mutator = (base, rng) => {
  const line = pickInsertLine(base, rng);
  if (line === null) return null;
  const extra = rng.chance(0.5) ? { surfaceOp: 'append' } : { sourceEventSeqs: [0] };
  const ins = insertRow(base, line, (seq, time) => envelope(base, 'turn/start', seq, time, { turn: 1 }, extra));
  if (!ins) return null;
  return { mutator: 'log-only-with-surface', detail: `turn/start with ${Object.keys(extra)[0]} before line ${line}`, text: ins.text, encoding: 'plain', fault: { kind: 'seq', seq: ins.seq, line } };
};


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
export const dsh021Vocabulary: Mutator = (base, rng) => {
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
export const payloadVersion: Mutator = (base, rng) => {
  const hit = pickEventLine(base, rng, (r) => (r.type === 'goal/change' || r.type === 'subagent/catalog') && typeof r.data?.version === 'number');
  if (!hit) return null;
  const { line, row } = hit;
  const version = row.data.version + rng.int(1, 5) + (row.type === 'subagent/catalog' ? 2 : 0);
  const edited = { ...row, data: { ...row.data, version } };
  return { mutator: 'payload-version', detail: `line ${line}: ${row.type} version ${row.data.version} → ${version}`, text: replaceLine(base, line, JSON.stringify(edited)), encoding: 'plain', fault: { kind: 'line', line, exact: true } };
};

/** Gives a human prompt one of the attribution-only source kinds of 0.2.1 (V4.2): shown, never an error. */
const SOURCE_KINDS: Row[] = [{ kind: 'working-directory' }, { kind: 'user-question-reply', callId: 'call_1', outcome: 'answered' }, { kind: 'tmux-context' }, { kind: 'user', rpcId: 'rpc-7' }, { kind: 'some-future-kind', extra: [1] }];
export const sourceKind: Mutator = (base, rng) => {
  const hit = pickEventLine(base, rng, (r) => r.type === 'user/message' && r.data?.source?.kind === 'user');
  if (!hit) return null;
  const { line, row } = hit;
  const source = rng.pick(SOURCE_KINDS);
  const edited = { ...row, data: { ...row.data, source } };
  return { mutator: 'source-kind', detail: `line ${line}: source ${JSON.stringify(source)}`, text: replaceLine(base, line, JSON.stringify(edited)), encoding: 'plain', fault: { kind: 'none' } };
};
