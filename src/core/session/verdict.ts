import type { SessionHeader } from '../log/types.ts';
import { FORK_TYPES, FORMAT4_ADDITIONS, FORMAT4_RELEASE_ORDER, KNOWN_DSH_TEXT } from '../log/versions.ts';
import { DIAGNOSTIC_DEFS } from '../diagnostics/codes.ts';
import type { Diagnostic } from '../diagnostics/diagnostic.ts';

/**
 * What the app says about a log as a whole (docs/diagnostics.md, "The verdict"). Three ways a log can
 * fail to be "ok" are kept apart, because they ask different things of the
 * user:
 * - `dsh-refuses`: a rule DSH enforces fails (dsh-log-rules L9, the "E" rules): the log is broken;
 * - `newer-than-app`: it holds a type, format or payload version this app does
 *   not know: a newer DSH (or a fork) may restore it; everything the app can
 *   fold is still shown, and the analyses after it are partial;
 * - `not-dsh`: no session header, not JSONL: not a DSH session log.
 */
export type VerdictKind = 'ok' | 'dsh-refuses' | 'newer-than-app' | 'not-dsh';

export interface VerdictCause {
  code: string;
  message: string;
  seq?: number;
  line?: number;
}

export interface Verdict {
  kind: VerdictKind;
  /** One sentence that names what decided the verdict (and, when newer, what this app knows). */
  summary: string;
  /** The findings that decided it, first ones first (at most MAX_CAUSES). */
  causes: VerdictCause[];
  /** newer-than-app: unknown event types, formats (`format 5`) and payload types, as named by the findings. */
  unknown: string[];
  /**
   * newer-than-app: the analyses that may miss what the unknown part does,
   * each from its seq in `from` (null: the whole log, e.g. a newer format);
   * `fromSeq` is the first of them.
   */
  partial: { fromSeq: number | null; analyses: string[]; from: Readonly<Record<string, number | null>> } | null;
  /**
   * newer-than-app: the analyses the unknown part cannot change (it carries no message or
   * surface fields, dsh-log-rules V7): surface and messages, model requests, or both.
   */
  exact: string[];
  /** The DSH releases and formats this app follows. */
  known: string;
  /**
   * Format-4 vocabulary the log uses that only later releases write: the
   * oldest DSH that restores it (older format-4 builds refuse it).
   */
  requires: { release: string; because: string[] } | null;
}

export interface VerdictInput {
  header: SessionHeader | null;
  /** The header's format version (0 when it has none). */
  version: number;
  /** Reader and fold findings (prompt/request findings never change the verdict). */
  diagnostics: readonly Diagnostic[];
  /** Event types present in the log, for `requires` (optional). */
  types?: Iterable<string>;
}

const MAX_CAUSES = 5;
/** The analyses a verdict can mark partial; a single projection unit is `projections (<key>)`. */
export const ANALYSES = { surface: 'surface and messages', requests: 'model requests', projections: 'projections' } as const;
const ALL_ANALYSES = [ANALYSES.surface, ANALYSES.requests, ANALYSES.projections];
/** Which analyses read a versioned payload (the units that fold it). */
const READERS_OF: Readonly<Record<string, string[]>> = {
  'goal/change': [`${ANALYSES.projections} (goal)`],
  'subagent/catalog': [`${ANALYSES.projections} (subagentCatalog)`],
};

/**
 * Whether an analysis is partial at `seq` under a verdict: it is named (a
 * unit also by `projections (<key>)`) and the cursor is past the unknown part.
 */
/** The seq from which an analysis (a unit: `projections (<key>)`) is partial: null throughout, undefined when it is not. */
export function partialFrom(verdict: Pick<Verdict, 'partial'>, analysis: string, unit?: string): number | null | undefined {
  const p = verdict.partial;
  if (!p) return undefined;
  // The analysis as a whole and the unit by name may both be partial: the earlier seq decides (null: throughout).
  const seqs = [analysis, unit === undefined ? null : `${analysis} (${unit})`]
    .filter((name): name is string => name !== null && p.analyses.includes(name))
    .map((name) => p.from[name] ?? p.fromSeq);
  if (!seqs.length) return undefined;
  return seqs.includes(null) ? null : Math.min(...(seqs as number[]));
}

export function isPartialAt(verdict: Pick<Verdict, 'partial'>, analysis: string, seq: number, unit?: string): boolean {
  const from = partialFrom(verdict, analysis, unit);
  return from !== undefined && (from === null || seq >= from);
}

/** Whether a code marks something newer than this app (a type, format or payload version it does not know). */
export const isNewerCode = (code: Diagnostic['code']): boolean => (DIAGNOSTIC_DEFS[code] as { newer?: boolean } | undefined)?.newer === true;
const isNewer = (d: Diagnostic) => isNewerCode(d.code);
const isNotDsh = (d: Diagnostic) => (DIAGNOSTIC_DEFS[d.code] as { notDsh?: boolean }).notDsh === true;

function cause(d: Diagnostic): VerdictCause {
  const c: VerdictCause = { code: d.code, message: d.message };
  if (d.seq !== undefined) c.seq = d.seq;
  if (d.line !== undefined) c.line = d.line;
  return c;
}

/** The basic DSH header shape every format shares (L1.5): how a newer format is told from another file. */
function dshShaped(header: SessionHeader | null): boolean {
  return header !== null && header.type === 'session' && typeof header.id === 'string' && header.id.length > 0
    && Number.isSafeInteger(header.createdAt);
}

/**
 * What a log needs of DSH beyond format 4's first releases (dsh-log-rules V2). Plugin records
 * need nothing: they are ignorable, so every format-4 reader skips them (V4.3), and a
 * V3 log's unknown ignorable types were renamed `plugin:<original>` by the first V4 builds.
 */
function requiresOf(types: Iterable<string> | undefined, version: number): Verdict['requires'] {
  if (!types || version !== 4) return null;
  const because: string[] = [];
  for (const t of types) if (FORMAT4_ADDITIONS[t]) because.push(t);
  if (!because.length) return null;
  const rank = (t: string) => FORMAT4_RELEASE_ORDER.indexOf(FORMAT4_ADDITIONS[t]);
  const newest = because.reduce((a, t) => (rank(t) > rank(a) ? t : a));
  return { release: FORMAT4_ADDITIONS[newest], because };
}

/** A finding's message inside a sentence of ours: without its own closing period. */
const clause = (message: string) => message.replace(/[.\s]+$/, '');
const list = (xs: readonly string[]) => (xs.length <= 3 ? xs.join(', ') : `${xs.slice(0, 3).join(', ')} and ${xs.length - 3} more`);

/** The analyses an unknown part may make partial (dsh-log-rules V7), each from the first seq that touches it. */
function touchedBy(d: Diagnostic): readonly string[] {
  // A payload version's subject reads `<type> payload version <n>`: only the units that fold the type.
  if (d.code === 'payload.unknown-version') return READERS_OF[(d.subject ?? '').split(' ')[0]] ?? [ANALYSES.projections];
  // An unknown type without surface fields (no path: row-checks' surfaceFieldOf) is log-only.
  if (d.code === 'type.unknown-required' && d.path === undefined) return [ANALYSES.projections];
  return ALL_ANALYSES;
}

function partialOf(newer: readonly Diagnostic[]): { partial: Verdict['partial']; exact: string[] } {
  const from: Record<string, number | null> = {};
  for (const d of newer) {
    const seq = d.seq ?? null;
    for (const a of touchedBy(d)) {
      const had = from[a];
      from[a] = had === undefined ? seq : had === null || seq === null ? null : Math.min(had, seq);
    }
  }
  const analyses = Object.keys(from);
  if (!analyses.length) return { partial: null, exact: [] };
  const seqs = Object.values(from);
  const fromSeq = seqs.includes(null) ? null : Math.min(...(seqs as number[]));
  // Projections are never called exact: a newer DSH may have a unit that reads the unknown type.
  const exact = [ANALYSES.surface, ANALYSES.requests].filter((a) => !analyses.includes(a));
  return { partial: { fromSeq, analyses, from }, exact };
}

/** "surface and messages, model requests are partial from seq 4", per group of analyses that share a seq. */
export function partialText(partial: NonNullable<Verdict['partial']>): string {
  const groups = new Map<number | null, string[]>();
  for (const a of partial.analyses) {
    const seq = partial.from[a] ?? partial.fromSeq;
    groups.set(seq, [...(groups.get(seq) ?? []), a]);
  }
  return [...groups].map(([seq, names]) => `${names.join(', ')} are partial${seq === null ? '' : ` from seq ${seq}`}`).join('; ');
}

export function logVerdict(input: VerdictInput): Verdict {
  const { header, version, diagnostics } = input;
  const requires = requiresOf(input.types, version);
  const base = { known: KNOWN_DSH_TEXT, requires, unknown: [] as string[], partial: null, exact: [] as string[] };

  // (c) Not a DSH log: nothing to read as one.
  const notDsh = diagnostics.filter(isNotDsh);
  if (notDsh.length || header === null) {
    const first = notDsh[0];
    return {
      ...base,
      kind: 'not-dsh',
      summary: `Not a DSH session log: ${first ? clause(first.message) : 'no session header'}. DSH session logs are JSONL files whose first line is a {"type":"session"} header.`,
      causes: notDsh.slice(0, MAX_CAUSES).map(cause),
      requires: null,
    };
  }

  const newer = diagnostics.filter(isNewer);
  const refusals = diagnostics.filter((d) => d.refuses);
  const newFormat = newer.find((d) => d.code === 'header.unsupported-version');
  if (newFormat && !dshShaped(header)) {
    return {
      ...base,
      kind: 'not-dsh',
      summary: `Not a DSH session log as far as this app can tell: the first line says format ${version} but lacks the id and createdAt every DSH header has.`,
      causes: [newFormat, ...refusals].slice(0, MAX_CAUSES).map(cause),
      requires: null,
    };
  }

  // Fold refusals after the first unknown part that could touch the surface may only follow from
  // it (it may be a surface node a later replace cites); rows and the header stand alone.
  const firstNewSeq = newer.filter((d) => touchedBy(d).includes(ANALYSES.surface)).reduce((m, d) => (d.seq !== undefined && d.seq < m ? d.seq : m), Infinity);
  const consequential = (d: Diagnostic) => newFormat !== undefined
    || (d.seq !== undefined && d.seq > firstNewSeq && d.code.startsWith('surface.'));
  const standalone = refusals.filter((d) => !consequential(d));

  // (a) DSH would refuse the log: a rule it enforces fails.
  if (standalone.length) {
    const first = standalone[0];
    return {
      ...base,
      kind: 'dsh-refuses',
      summary: `DSH would refuse to restore this log: ${clause(first.message)}${first.seq !== undefined ? ` (seq ${first.seq})` : first.line !== undefined ? ` (line ${first.line})` : ''}${standalone.length > 1 ? `; ${standalone.length - 1} more finding(s) DSH refuses` : ''}.`,
      causes: standalone.slice(0, MAX_CAUSES).map(cause),
    };
  }

  // (b) Newer than this app (or a fork's own vocabulary): name what is unknown, what it costs, what the app knows.
  if (newer.length) {
    const unknown = [...new Set(newer.map((d) => d.subject ?? d.code))];
    const { partial, exact } = newFormat ? { partial: { fromSeq: null, analyses: ALL_ANALYSES, from: {} }, exact: [] } : partialOf(newer);
    const what = newFormat
      ? `session format ${version}${unknown.length > 1 ? ` and ${list(unknown.filter((u) => u !== `format ${version}`))}` : ''}`
      : list(unknown);
    const forkTypes = unknown.filter((u) => FORK_TYPES[u]).map((u) => ` ${u}: ${FORK_TYPES[u]}.`).join('');
    const fork = (newFormat ? ' A format above 4 may also be a DSH fork\'s own format.' : '') + forkTypes;
    const after = refusals.length ? ` ${refusals.length} later finding(s) DSH's rules raise may only follow from it.` : '';
    const exactText = exact.length ? `; ${exact.join(' and ')} are exact (what it adds carries no message or surface fields)` : '';
    return {
      ...base,
      kind: 'newer-than-app',
      unknown,
      partial,
      exact,
      summary: `This log is newer than this app, or uses a fork's own vocabulary: it uses ${what}, which this app does not know; it knows ${KNOWN_DSH_TEXT}.${fork} Everything the app can fold is shown${exactText}${partial ? `; ${partialText(partial)}` : ''}.${after}`,
      causes: newer.slice(0, MAX_CAUSES).map(cause),
    };
  }

  return {
    ...base,
    kind: 'ok',
    summary: `DSH would restore this log${requires ? ` (it needs DSH ${requires.release} or later: ${requires.because.join(', ')})` : ''}.`,
    causes: [],
  };
}
