// Section ids (P…) are those of docs/dsh-log-rules.md.
import type { Dialect } from '../log/types.ts';
import type { ContentBlock } from '../messages/types.ts';
import { canonicalHeader, headerEquals, type RequestHeader } from './request-header.ts';
import type { SurfaceContext, SurfaceState } from '../surface/types.ts';
import { systemNodes, type SystemNode } from './system-nodes.ts';

/**
 * What DSH's SystemPromptProjection would commit for a newly rendered prompt
 * (P5.2), as a pure function of a folded
 * surface. It never commits: the caller decides what to do with the result.
 * Also the two inputs the loop computes per attempt (P5.3): `toolsChanged`
 * against the latest logged header (P6.1) and the `startsSeries` disjunction.
 */

export type AdmissionIntent = 'append' | { replace: number };

/** The message of a commit, before DSH gives it an id. */
export interface SystemPromptMessage {
  role: 'system';
  content: ContentBlock[];
  source: { kind: string; plugin?: string };
}

/** One `system/message` the projection would log. */
export interface AdmissionCommit {
  /** The prompt text the message carries; '' clears (dormant node). */
  text: string;
  intent: AdmissionIntent;
  /** The message without an id (DSH mints one when it commits). */
  message: SystemPromptMessage;
  /** The event's surface metadata: `"append"` or a one-node replace. */
  surfaceOp: 'append' | { op: 'replace'; startSeq: number; endSeq: number };
  sourceEventSeqs?: number[];
  /** Why this commit: the head rewrite, a tail cleared, or an append. */
  role: 'append' | 'head' | 'tail';
}

/** The P5.2 decision-table rows, in evaluation order. */
export type AdmissionRow = 1 | 2 | 3 | 4;

export const ADMISSION_ROWS: Readonly<Record<AdmissionRow, string>> = {
  1: 'no system node on the surface: append (reserves the head, even when empty)',
  2: 'not in-history, new series, or empty render: clear active tails, then rewrite the head if it differs',
  3: 'in-history continuing series: the latest active prompt already equals the render',
  4: 'in-history continuing series with a new render: append',
};

export interface AdmissionFlags {
  /** The attempt's route takes in-history system prompt updates. */
  inHistory: boolean;
  /** The request starts a new series (see startsSeries). */
  startsSeries: boolean;
}

export interface Admission {
  row: AdmissionRow;
  /** The row's rule in words (ADMISSION_ROWS). */
  rule: string;
  commits: AdmissionCommit[];
  /** The system nodes the decision read (P5.1). */
  head: SystemNode | undefined;
  latest: SystemNode | undefined;
}

const SYSTEM_PROMPT_PLUGIN = '@deepseek-ai/dsh-system-prompt';

/** `createSystemMessage(t)`: content [] for '', else one text block; source by dialect (P3.3). */
export function systemPromptMessage(text: string, dialect: Dialect = 'v3'): SystemPromptMessage {
  const source = dialect === 'v4' ? { kind: 'system-prompt' } : { kind: 'plugin', plugin: SYSTEM_PROMPT_PLUGIN };
  return { role: 'system', content: text === '' ? [] : [{ type: 'text', text }], source };
}

function append(text: string, dialect: Dialect): AdmissionCommit {
  return { text, intent: 'append', message: systemPromptMessage(text, dialect), surfaceOp: 'append', role: 'append' };
}

function replace(node: SystemNode, text: string, role: 'head' | 'tail', dialect: Dialect): AdmissionCommit {
  return {
    text,
    intent: { replace: node.seq },
    message: systemPromptMessage(text, dialect),
    surfaceOp: { op: 'replace', startSeq: node.seq, endSeq: node.seq },
    sourceEventSeqs: [node.seq],
    role,
  };
}

/** P5.2 `project(rendered, {inHistory, startsSeries})` over the current surface. */
export function admitSystemPrompt(state: SurfaceState, ctx: SurfaceContext, rendered: string, flags: AdmissionFlags): Admission {
  const { nodes, head, latest } = systemNodes(state, ctx);
  const dialect = ctx.dialect;
  const result = (row: AdmissionRow, commits: AdmissionCommit[]): Admission => ({ row, rule: ADMISSION_ROWS[row], commits, head, latest });
  if (!head) return result(1, [append(rendered, dialect)]);
  if (!flags.inHistory || flags.startsSeries || rendered === '') {
    const commits: AdmissionCommit[] = [];
    // Tails first, in surface order; an opaque tail (text undefined) is active.
    for (const node of nodes) if (node !== head && node.text !== '') commits.push(replace(node, '', 'tail', dialect));
    if (head.text !== rendered) commits.push(replace(head, rendered, 'head', dialect));
    return result(2, commits);
  }
  if (latest?.text === rendered) return result(3, []);
  return result(4, [append(rendered, dialect)]);
}

/**
 * P5.3 `toolsChanged(t)`: the latest logged header, with its tools replaced,
 * differs from itself under headerEquals. No baseline means no change.
 */
export function toolsChanged(baseline: RequestHeader | undefined | null, tools: unknown): boolean {
  if (!baseline) return false;
  return !headerEquals(baseline, canonicalHeader({ ...baseline, tools }));
}

export interface SeriesInputs {
  /** First attempt and the pre-step decision asked for a new request series. */
  declared: boolean;
  /** contentGeneration when the last request was built (or at attach). */
  generationAtLastRequest: number;
  /** The surface's contentGeneration now. */
  contentGeneration: number;
  /** The prepared route carries a tool update (tool changes ride in history). */
  toolUpdateRoute: boolean;
  /** toolsChanged(assembly.tools). */
  toolsChanged: boolean;
}

/** P5.3 `startsSeries`: declared, or history rewritten since the last request, or a tool change no update carries. */
export function startsSeries(i: SeriesInputs): boolean {
  return i.declared || i.generationAtLastRequest !== i.contentGeneration || (!i.toolUpdateRoute && i.toolsChanged);
}
