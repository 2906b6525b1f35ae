// Compares the core's results for a log with a reference computed by DSH
// itself (corpus expected/README.md). Used by `npm run conformance` and the
// corpus suite.
import type { Diagnostic } from '../src/core/diagnostics/diagnostic.ts';
import type { ReadResult } from '../src/core/log/types.ts';
import { foldSession, type SessionFold } from '../src/core/session/fold-session.ts';
import { jsonEqual } from '../src/core/util/json.ts';
import { projectionMismatches, projectionsOf } from '../src/core/projections/index.ts';
import { buildRequests } from '../src/core/requests/analyze.ts';
import { foldRequestHeader } from '../src/core/prompt/request-header.ts';

export interface Mismatch {
  path: string;
  expected: unknown;
  actual: unknown;
}

/**
 * Header findings the reference's header realization rewrote away
 * (`{{cwd}}` → `/cwd`, missing version/delegationDepth → 0). Used only to
 * compare `ok`; the user still sees every one of them.
 */
function realizedAway(d: Diagnostic, realized: Record<string, unknown>): boolean {
  if (!d.code.startsWith('header.')) return false;
  if (d.path && Object.hasOwn(realized, d.path)) return true;
  return d.code === 'header.no-version' && Object.hasOwn(realized, 'header.version');
}

/**
 * The app words an unknown required type and a format above 4 as "newer than
 * this app" (docs/diagnostics.md), not as a refusal: a newer DSH may restore such a log.
 * The DSH that computed a reference refuses both (E1, E4), so comparisons
 * with it count them as refusals.
 */
const REFERENCE_REFUSES = new Set(['type.unknown-required', 'header.unsupported-version']);
export const refusedByReference = (d: Diagnostic): boolean => d.refuses === true || REFERENCE_REFUSES.has(d.code);

/** Reasons DSH names in its refusals, mapped to the diagnostic codes that carry them. */
const REASONS: [RegExp, string[]][] = [
  [/seq gap/, ['row.seq-gap']],
  [/unparsable committed event/, ['row.unparsable', 'row.packed', 'row.not-object']],
  [/lacks provider\/model|invalid reasoningEffort|invalid adapterDefaults|lacks an identified message|must have role|invalid source|invalid content|model source|tool source|tool-result block|mismatched tool call ids/, ['payload.schema']],
  [/unknown to this harness/, ['type.unknown-required']],
  [/pre-react-loop|legacy/, ['type.retired']],
  [/first line is not a session header|session header/, ['header.missing', 'header.invalid']],
  [/invalid seed event/, ['surface.marker', 'surface.op', 'surface.sources', 'surface.endpoint', 'surface.uncovered', 'surface.tool-result-rewrite']],
];

/** Where DSH's message says the problem is: a line (0-based after the header), an index or a seq. */
function placeOf(error: string): { line?: number; seq?: number } {
  const line = /at line (\d+)/.exec(error);
  if (line) return { line: Number(line[1]) + 1 };
  const index = /at index (\d+)|at seq (\d+)|\(seq (\d+)\)/.exec(error);
  if (index) return { seq: Number(index[1] ?? index[2] ?? index[3]) };
  return {};
}

function refusalMatches(error: string, diagnostics: Diagnostic[]): Diagnostic | undefined {
  const codes = REASONS.find(([re]) => re.test(error))?.[1];
  const place = placeOf(error);
  return diagnostics.find((d) => refusedByReference(d)
    && (!codes || codes.includes(d.code))
    && (place.line === undefined || d.line === place.line)
    && (place.seq === undefined || d.seq === place.seq));
}

export function compareWithReference(read: ReadResult, ref: any): { session: SessionFold; mismatches: Mismatch[] } {
  const session = foldSession(read, { steps: true });
  const out: Mismatch[] = [];
  const check = (path: string, expected: unknown, actual: unknown) => {
    if (!jsonEqual(expected, actual)) out.push({ path, expected, actual });
  };
  const realized = ref.realized ?? {};
  const refusals = session.diagnostics.filter((d) => refusedByReference(d) && !realizedAway(d, realized));
  if (ref.ok === false) {
    if (!refusalMatches(String(ref.error), refusals)) {
      out.push({ path: 'error', expected: ref.error, actual: refusals.map((d) => `${d.code} line ${d.line} seq ${d.seq}: ${d.message}`) });
    }
    return { session, mismatches: out };
  }
  check('ok', true, refusals.length === 0 ? true : refusals.map((d) => `${d.code}: ${d.message}`));
  const logged = read.events;
  check('eventCount', ref.eventCount, logged.length);
  check('lastSeq', ref.lastSeq, logged.length ? logged[logged.length - 1].seq : -1);
  const closers = session.synthetic.filter((e) => e.type !== 'session/end-seed');
  check('closers', ref.closers, closers.length);
  const withoutTime = (e: any) => { const { time: _t, ...rest } = e; return rest; };
  check('closerEvents', (ref.closerEvents ?? []).map(withoutTime), closers.map(withoutTime));
  const steps = session.steps.filter((s) => s.op !== 'project');
  check('steps.length', ref.steps.length, steps.length);
  ref.steps.forEach((s: any, i: number) => {
    const got = steps[i];
    const pick = (x: any) => x && { seq: x.seq, op: x.op, nodes: x.nodes, replaceGeneration: x.replaceGeneration };
    check(`steps[${i}]`, pick(s), pick(got));
  });
  check('final.nodes', ref.final.nodes, session.surface.nodes);
  check('final.replaceGeneration', ref.final.replaceGeneration, session.surface.replaceGeneration);
  check('final.messages.length', ref.final.messages.length, session.messages.length);
  ref.final.messages.forEach((m: unknown, i: number) => check(`final.messages[${i}]`, m, session.messages[i]));
  if (ref.projections) out.push(...projectionMismatches(ref.projections, projectionsOf(session).snapshot()));
  if ('requestHeader' in ref.final) check('final.requestHeader', ref.final.requestHeader, foldRequestHeader(session.events) ?? null);
  if (Array.isArray(ref.requests)) {
    // A JSON round trip drops undefined fields, as the reference's serialization did.
    const requests = JSON.parse(JSON.stringify(buildRequests(session).requests));
    check('requests.length', ref.requests.length, requests.length);
    ref.requests.forEach((r: any, i: number) => {
      const got = requests[i];
      check(`requests[${i}]`, r, got && { cut: got.cut, turn: got.turn, step: got.step, messageCount: got.messageCount, messages: got.messages, header: got.header });
    });
  }
  return { session, mismatches: out };
}

/** The first differing path inside two JSON values, for a one-line report. */
export function firstDifference(a: unknown, b: unknown, path = ''): string {
  if (jsonEqual(a, b)) return '';
  if (typeof a === 'object' && typeof b === 'object' && a && b && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference((a as any)[k], (b as any)[k], `${path}${Array.isArray(a) ? `[${k}]` : `.${k}`}`);
      if (d) return d;
    }
  }
  return path;
}
