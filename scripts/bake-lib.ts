// The Bake conformance tables (../shared/conformance/bake/README.md) run
// against our core. This file builds each case's log bytes from its edits
// and judges our core's answer the way the README describes; every DSH rule
// is the core's (reader, foldSession, buildRequests, prompt/admission).
import fs from 'node:fs';
import path from 'node:path';
import { readLogText } from '../src/core/log/reader.ts';
import { admitSystemPrompt, startsSeries, toolsChanged } from '../src/core/prompt/admission.ts';
import { buildRequests } from '../src/core/requests/analyze.ts';
import { foldRequestHeader } from '../src/core/prompt/request-header.ts';
import { foldSession, type SessionFold } from '../src/core/session/fold-session.ts';
import type { SurfaceContext } from '../src/core/surface/types.ts';
import { refusedByReference } from './conformance-lib.ts';

export type Table = 'derivation' | 'admission';

export interface SelectionEntry {
  id: string;
  table: Table;
  /** true: judged as a check of DSH behaviour; false: skipped as Bake-specific. */
  dsh: boolean;
  reason: string;
  /** For a DSH check: which parts of the expectation are judged. */
  judge?: string[];
  /** For a rejection: the finding code our core must reject with. */
  expectCode?: string;
  /** Our core disagrees with the table and we believe DSH agrees with us (evidence in reason). */
  disagreement?: boolean;
}

export interface Selection {
  cases: SelectionEntry[];
}

export interface BakeTables {
  /** The folder that holds `conformance/` (the tables' paths are relative to it). */
  root: string;
  derivation: any;
  admission: any;
}

/** Accepts the bake folder itself or its `conformance/` subfolder. */
export function resolveBakeRoot(dir: string): string {
  const abs = path.resolve(dir);
  if (fs.existsSync(path.join(abs, 'runtime', 'request-derivation-cases.json'))) return path.dirname(abs);
  if (fs.existsSync(path.join(abs, 'conformance', 'runtime', 'request-derivation-cases.json'))) return abs;
  throw new Error(`Bake conformance tables not found in ${abs} (expected runtime/request-derivation-cases.json there or under conformance/)`);
}

export function loadBakeTables(dir: string): BakeTables {
  const root = resolveBakeRoot(dir);
  const read = (p: string) => JSON.parse(fs.readFileSync(path.join(root, p), 'utf8'));
  return {
    root,
    derivation: read('conformance/runtime/request-derivation-cases.json'),
    admission: read('conformance/session/prompt-admission-cases.json'),
  };
}

export function loadSelection(file = path.resolve(import.meta.dirname, '../test/conformance/bake-selection.json')): Selection {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

const readText = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
const splitLines = (text: string) => text.split('\n').filter((l, i, a) => !(i === a.length - 1 && l === ''));

// ---------------------------------------------------------------- JSON pointers

function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`bad JSON pointer ${pointer}`);
  return pointer.slice(1).split('/');
}

function parentOf(root: any, pointer: string): { parent: any; key: string } {
  const t = tokens(pointer);
  let node = root;
  for (const k of t.slice(0, -1)) {
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, k)) throw new Error(`pointer ${pointer} does not resolve`);
    node = node[k];
  }
  if (node === null || typeof node !== 'object') throw new Error(`pointer ${pointer} does not resolve`);
  return { parent: node, key: t[t.length - 1] };
}

/** Sets a member as an own property (a `__proto__` key stays an ordinary member). */
function setAt(root: any, pointer: string, value: unknown): void {
  const { parent, key } = parentOf(root, pointer);
  Object.defineProperty(parent, key, { value, writable: true, enumerable: true, configurable: true });
}

function removeAt(root: any, pointer: string): void {
  const { parent, key } = parentOf(root, pointer);
  if (!Object.prototype.hasOwnProperty.call(parent, key)) throw new Error(`pointer ${pointer} does not resolve`);
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else delete parent[key];
}

function insertAt(root: any, pointer: string, value: unknown): void {
  const { parent, key } = parentOf(root, pointer);
  if (!Array.isArray(parent)) throw new Error(`insert target ${pointer} is not in an array`);
  parent.splice(key === '-' ? parent.length : Number(key), 0, value);
}

// ---------------------------------------------------------------- log bytes

/** Request-derivation case → log text (README "Building the log bytes for a case"). */
export function derivationLogText(c: any, t: BakeTables): string {
  let lines: string[];
  let tail = '';
  if (c.log === 'fixture') {
    lines = splitLines(readText(t.root, t.derivation.fixture.log));
    for (const e of c.edits ?? []) {
      if ('header' in e) lines[0] = e.header;
      else if ('truncate' in e) lines = lines.slice(0, e.truncate + 1);
      else if ('tail' in e) tail = e.tail;
      else if ('text' in e) lines[e.row + 1] = e.text;
      else if ('pointer' in e) {
        const row = JSON.parse(lines[e.row + 1]);
        if (e.remove) removeAt(row, e.pointer);
        else setAt(row, e.pointer, e.value);
        lines[e.row + 1] = JSON.stringify(row);
      } else throw new Error(`unknown edit ${JSON.stringify(e)}`);
    }
  } else {
    lines = c.log;
  }
  return lines.join('\n') + '\n' + tail;
}

/** Prompt-admission case → log text (README "Table 2 … Building the log"). */
export function admissionLogText(c: any, t: BakeTables): string {
  const [header, ...rows] = splitLines(readText(t.root, t.admission.logs[c.log]));
  let head = header;
  let body = rows;
  for (const e of c.edits ?? []) {
    if ('truncate' in e) body = body.slice(0, e.truncate);
    else if ('header' in e) head = e.header;
    else if ('append' in e) body.push(e.append);
    else if ('find' in e) {
      const row = body[e.row];
      const at = row.indexOf(e.find);
      if (at < 0 || row.indexOf(e.find, at + 1) >= 0) throw new Error(`find must occur exactly once in row ${e.row}`);
      body[e.row] = row.slice(0, at) + e.replace + row.slice(at + e.find.length);
    } else if ('text' in e) body[e.row] = e.text;
    else throw new Error(`unknown edit ${JSON.stringify(e)}`);
  }
  return [head, ...body].map((l) => l + '\n').join('');
}

// ---------------------------------------------------------------- requests

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** One message-id bijection over the whole request sequence: ids → message-N by first use. */
export function normalizeMessageIds(requests: any[]): any[] {
  const ids = new Map<string, string>();
  return requests.map((r) => ({
    ...r,
    messages: r.messages.map((m: any) => {
      if (typeof m.id !== 'string' || !UUID_V4.test(m.id)) throw new Error(`message id ${JSON.stringify(m.id)} is not a v4 UUID`);
      if (!ids.has(m.id)) ids.set(m.id, `message-${ids.size + 1}`);
      return { ...m, id: ids.get(m.id) };
    }),
  }));
}

export function expectedRequests(c: any, t: BakeTables): any[] {
  const ts = c.ts;
  if (ts.requests !== 'fixture') return structuredClone(ts.requests);
  const root = JSON.parse(readText(t.root, t.derivation.fixture.expected)).requests;
  for (const e of ts.edits ?? []) {
    if ('insert' in e) insertAt(root, e.pointer, structuredClone(e.insert));
    else if (e.remove) removeAt(root, e.pointer);
    else setAt(root, e.pointer, structuredClone(e.value));
  }
  return root;
}

/** Deep JSON equality with key order ignored; null, [] and absent differ. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => jsonEqual(x, (b as unknown[])[i]));
  const ak = Object.keys(a as object);
  const bk = Object.keys(b as object);
  return ak.length === bk.length && ak.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual((a as any)[k], (b as any)[k]));
}

/** Where two JSON values first differ, as a pointer. */
export function firstDiff(a: unknown, b: unknown, at = ''): string | null {
  if (jsonEqual(a, b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDiff((a as any)[k], (b as any)[k], `${at}/${k}`);
      if (d !== null) return d;
    }
  }
  return at || '/';
}

export interface OurReplay {
  session: SessionFold;
  /** Our loop requests (layer A), in cut order, toolHistory dropped. */
  requests: any[];
  /** Why our core would not rebuild every request, or null. */
  rejection: string | null;
}

/**
 * Our core on a format-3 log, in the scope of the table's replay oracle: a
 * refusal counts when the reader refuses the log (any row, or the header) or
 * the surface fold refuses an event before the last cut; the requests must
 * cover every started step and each must have a header.
 */
export function replayWithOurCore(text: string): OurReplay {
  const read = readLogText(text);
  const session = foldSession(read);
  const list = buildRequests(session);
  const requests = list.requests.map((r) => {
    const { toolHistory: _drop, ...rest } = r.loopRequest;
    return JSON.parse(JSON.stringify(rest));
  });
  // The reader's findings cover every row (the oracle's codec scan); the
  // surface fold's only the events before the last cut (its seed checks).
  const lastCut = list.requests.at(-1)?.cut ?? -1;
  const foldFindings = session.diagnostics.slice(read.diagnostics.length);
  const inScope = [...read.diagnostics, ...foldFindings.filter((d) => d.seq === undefined || d.seq < lastCut)];
  const refusal = inScope.find(refusedByReference);
  // Bake's replay rejects a call with no header; the app only warns that it cannot show one.
  const blocking = list.findings.find((f) => f.severity === 'error' || f.code === 'request.step-unsettled' || f.code === 'request.no-header');
  const rejection = refusal ? `${refusal.code}: ${refusal.message}` : blocking ? `${blocking.code}: ${blocking.message}` : null;
  return { session, requests, rejection };
}

export interface Verdict {
  ok: boolean;
  detail: string;
}

const short = (v: unknown) => {
  const s = JSON.stringify(v);
  return s === undefined ? 'undefined' : s.length > 200 ? s.slice(0, 200) + '…' : s;
};

/**
 * A request-derivation case. `judge` picks the parts: "outcome" (accept vs
 * reject only), "messages" (each request's message array), "request" (every
 * member but Bake's toolHistory).
 */
export function judgeDerivation(c: any, t: BakeTables, judge: string[] = ['outcome', 'messages']): Verdict {
  const ours = replayWithOurCore(derivationLogText(c, t));
  if (c.ts.outcome === 'rejected') {
    return ours.rejection ? { ok: true, detail: ours.rejection } : { ok: false, detail: `expected a rejection (${c.ts.message ?? c.ts.class}), our core accepted it with ${ours.requests.length} requests` };
  }
  if (ours.rejection) return { ok: false, detail: `expected requests, our core rejects: ${ours.rejection}` };
  const expected = expectedRequests(c, t).map(({ toolHistory: _drop, ...rest }: any) => rest);
  let got: any[];
  try {
    got = normalizeMessageIds(ours.requests);
  } catch (err) {
    return { ok: false, detail: (err as Error).message };
  }
  if (got.length !== expected.length) return { ok: false, detail: `expected ${expected.length} requests, got ${got.length}` };
  for (let i = 0; i < got.length; i++) {
    const [e, g] = judge.includes('request') ? [expected[i], got[i]] : [expected[i].messages, got[i].messages];
    const d = firstDiff(e, g);
    if (d !== null) {
      const at = d.split('/').slice(1).reduce((v: any, k) => v?.[k], e);
      const gv = d.split('/').slice(1).reduce((v: any, k) => v?.[k], g);
      return { ok: false, detail: `request ${i}${judge.includes('request') ? '' : ' messages'}${d}: expected ${short(at)} got ${short(gv)}` };
    }
  }
  return { ok: true, detail: `${got.length} requests` };
}

// ---------------------------------------------------------------- admission

function resolveLogRefs(value: unknown, rows: unknown[]): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveLogRefs(v, rows));
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (Object.keys(o).length === 1 && typeof o.$log === 'string') {
      const [, row, ...rest] = o.$log.split('/');
      return rest.reduce((v: any, k) => {
        if (v === null || typeof v !== 'object' || !Object.prototype.hasOwnProperty.call(v, k)) throw new Error(`$log ${o.$log} does not resolve`);
        return v[k];
      }, rows[Number(row)]);
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) Object.defineProperty(out, k, { value: resolveLogRefs(v, rows), writable: true, enumerable: true, configurable: true });
    return out;
  }
  return value;
}

/**
 * A prompt-admission case: restore (reader + foldSession, which appends the
 * interrupted-turn closers), then the generation, every projection query,
 * every toolsChanged query and every series query. `judge` may drop parts.
 */
export function judgeAdmission(c: any, t: BakeTables, judge: string[] = ['contentGeneration', 'prompts', 'toolsChanged', 'series']): Verdict {
  const text = admissionLogText(c, t);
  const session = foldSession(readLogText(text));
  const refusal = session.diagnostics.find(refusedByReference);
  if (refusal) return { ok: false, detail: `our core refuses to restore the log: ${refusal.code}: ${refusal.message}` };
  const ts = c.ts;
  const problems: string[] = [];
  if (judge.includes('contentGeneration') && session.surface.contentGeneration !== ts.contentGeneration) {
    problems.push(`contentGeneration: expected ${ts.contentGeneration} got ${session.surface.contentGeneration}`);
  }
  const ctx: SurfaceContext = { dialect: session.read.dialect, eventAt: session.eventAt };
  if (judge.includes('prompts')) {
    ts.prompts.forEach((p: any, i: number) => {
      const admission = admitSystemPrompt(session.surface, ctx, p.rendered, { inHistory: p.inHistory, startsSeries: p.startsSeries });
      const got = admission.commits.map((k) => ({ text: k.text, intent: k.intent }));
      if (!jsonEqual(got, p.commits)) {
        problems.push(`prompts[${i}] ${short({ rendered: p.rendered, inHistory: p.inHistory, startsSeries: p.startsSeries })} (row ${admission.row}): expected ${short(p.commits)} got ${short(got)}`);
        return;
      }
      // Each commit's message and surface metadata, as the README describes.
      for (const k of admission.commits) {
        const content = k.text === '' ? [] : [{ type: 'text', text: k.text }];
        const shapeOk = k.message.role === 'system' && jsonEqual(k.message.content, content)
          && k.message.source.kind === 'plugin' && k.message.source.plugin === '@deepseek-ai/dsh-system-prompt'
          && (k.intent === 'append'
            ? k.surfaceOp === 'append' && k.sourceEventSeqs === undefined
            : jsonEqual(k.surfaceOp, { op: 'replace', startSeq: k.intent.replace, endSeq: k.intent.replace }) && jsonEqual(k.sourceEventSeqs, [k.intent.replace]));
        if (!shapeOk) problems.push(`prompts[${i}]: commit ${short(k)} has the wrong message or surface metadata`);
      }
    });
  }
  const rows = splitLines(text).slice(1).map((l) => JSON.parse(l));
  const baseline = foldRequestHeader(session.read.events);
  if (judge.includes('toolsChanged')) {
    ts.toolsChanged.forEach((q: any, i: number) => {
      const got = toolsChanged(baseline, resolveLogRefs(q.tools, rows));
      if (got !== q.changed) problems.push(`toolsChanged[${i}] ${short(q.tools)}: expected ${q.changed} got ${got}`);
    });
  }
  if (judge.includes('series')) {
    ts.series.forEach((q: any, i: number) => {
      const got = startsSeries({
        declared: q.declared,
        generationAtLastRequest: q.generationAtLastRequest,
        contentGeneration: session.surface.contentGeneration,
        toolUpdateRoute: q.toolUpdateRoute,
        toolsChanged: toolsChanged(baseline, resolveLogRefs(q.tools, rows)),
      });
      if (got !== q.startsSeries) problems.push(`series[${i}]: expected ${q.startsSeries} got ${got}`);
    });
  }
  return problems.length ? { ok: false, detail: problems[0] + (problems.length > 1 ? ` (+${problems.length - 1} more)` : '') } : { ok: true, detail: '' };
}

export function caseIndex(t: BakeTables): Map<string, { table: Table; c: any }> {
  const out = new Map<string, { table: Table; c: any }>();
  for (const c of t.derivation.cases) out.set(`derivation:${c.id}`, { table: 'derivation', c });
  for (const c of t.admission.cases) out.set(`admission:${c.id}`, { table: 'admission', c });
  return out;
}

export function judgeCase(entry: SelectionEntry, c: any, t: BakeTables): Verdict {
  try {
    return entry.table === 'derivation' ? judgeDerivation(c, t, entry.judge) : judgeAdmission(c, t, entry.judge);
  } catch (err) {
    return { ok: false, detail: `threw ${(err as Error).message}` };
  }
}
