import { compareRuns, type CompareReport } from '../compare/compare.ts';
import { diffDocument, type DiffDocument } from '../compare/report.ts';
import { loadRun } from '../compare/run.ts';
import { buildTrails } from '../compare/trail.ts';
import { readLogText } from '../log/reader.ts';
import type { ReadResult } from '../log/types.ts';
import { estimateMessage, estimateSystemTokens, estimateToolsTokens } from '../messages/estimate.ts';
import type { ModelRequest } from '../requests/build.ts';
import type { SurfaceTotals } from '../surface/surface-totals.ts';
import type { Verdict } from '../session/verdict.ts';
import { applyEdits, type EditProblem } from './apply-edits.ts';
import { describeEdit, type Edit } from './edits.ts';

/** One aligned model call, before and after the edits. */
export interface WhatIfCall {
  /** 1-based call numbers (null: only one side made the call). */
  before: number | null;
  after: number | null;
  status: CompareReport['rows'][number]['status'];
  /** The request's estimated input tokens (messages, system prompt, tools: messages/estimate.ts). */
  tokensBefore: number | null;
  tokensAfter: number | null;
  /** Leading messages equal to the call before it: where the cached prefix ends. */
  prefixBefore: number | null;
  prefixAfter: number | null;
}

/** What the edits changed: the comparison of the original and the edited log, call by call. */
export interface WhatIfReport {
  edits: { edit: Edit; text: string }[];
  /** What an edit could not do, or which references it broke (the edited log's verdict says what DSH would refuse). */
  problems: EditProblem[];
  identical: boolean;
  firstDivergence: DiffDocument['firstDivergence'];
  verdictBefore: Verdict;
  verdictAfter: Verdict;
  calls: WhatIfCall[];
  comparison: DiffDocument;
}

/** A request's input as the token estimate counts it. */
export function requestTokens(r: ModelRequest): number {
  const { system, tools, messages } = r.loopRequest;
  return messages.reduce((n, m) => n + estimateMessage(m), 0) + estimateSystemTokens({ system }) + estimateToolsTokens({ tools });
}

/** What a side's call figures are read from: its calls, and the load's surface totals. */
export interface CallSide {
  requests: readonly ModelRequest[];
  surfaceTotals: SurfaceTotals;
}

/**
 * Each call's estimated input, from the totals the load kept after every
 * surface change (a binary search for the messages before its cut) and its
 * system prompt and tools, each priced once. Deriving each call's messages
 * instead walks the whole surface per call: quadratic in a long session
 * (docs/long-sessions.md). `requestTokens` is the same figure, the long way.
 */
export function callTokensOf(side: CallSide): (r: ModelRequest) => number {
  const priced = new Map<unknown, number>();
  const once = (key: unknown, price: () => number) => {
    let n = priced.get(key);
    if (n === undefined) priced.set(key, (n = price()));
    return n;
  };
  return (r) => {
    // The request's system prompt and tools are its header's (never `loopRequest`: reading it derives the messages).
    const system = r.header?.system;
    const tools = r.header?.tools;
    return side.surfaceTotals.at(r.cut - 1).tokens + once(system, () => estimateSystemTokens({ system })) + once(tools, () => estimateToolsTokens({ tools }));
  };
}

/** Each aligned row of a comparison with its calls' estimated input tokens and kept prefix, before (A) and after (B). */
export function whatIfCalls(rows: CompareReport['rows'], a: CallSide, b: CallSide): WhatIfCall[] {
  const tokensA = callTokensOf(a);
  const tokensB = callTokensOf(b);
  return rows.map((row) => {
    const ra = row.a === null ? null : a.requests[row.a];
    const rb = row.b === null ? null : b.requests[row.b];
    return {
      before: row.a === null ? null : row.a + 1,
      after: row.b === null ? null : row.b + 1,
      status: row.status,
      tokensBefore: ra ? tokensA(ra) : null,
      tokensAfter: rb ? tokensB(rb) : null,
      prefixBefore: ra ? ra.prefix.keptMessages : null,
      prefixAfter: rb ? rb.prefix.keptMessages : null,
    };
  });
}

/**
 * The what-if of a log (docs/whatif.md): the edits applied to its text, the
 * result re-folded by the same core, and both compared by the aligner the
 * compare mode uses. Returns the edited text too, to download or open.
 */
export function whatIf(text: string, edits: readonly Edit[], name = 'log', read: ReadResult = readLogText(text)): { report: WhatIfReport; editedText: string } {
  const edited = applyEdits(text, read, edits);
  const before = loadRun(read, name);
  const after = loadRun(readLogText(edited.text), `${name} (what if)`);
  // The edited log holds the original's events before its first edit: its first calls' trails are the original's.
  const trailsBefore = buildTrails(before.run);
  const trailsAfter = buildTrails(after.run, { run: before.run, from: trailsBefore, before: edited.sharedBefore });
  const report = compareRuns(before.run, after.run, { a: trailsBefore, b: trailsAfter });
  const calls = whatIfCalls(report.rows, { requests: before.run.requests, surfaceTotals: before.prompts.surfaceTotals }, { requests: after.run.requests, surfaceTotals: after.prompts.surfaceTotals });
  const comparison = diffDocument(report);
  return {
    editedText: edited.text,
    report: {
      edits: edits.map((edit) => ({ edit, text: describeEdit(edit) })),
      problems: edited.problems,
      identical: report.identical,
      firstDivergence: comparison.firstDivergence,
      verdictBefore: before.run.verdict,
      verdictAfter: after.run.verdict,
      calls,
      comparison,
    },
  };
}
