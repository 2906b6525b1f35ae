import { createColumnHelper } from '@tanstack/react-table';
import type { GenerationFile, GenerationFinding } from '../../core/folder/generations.ts';
import type { SessionNode } from '../../core/folder/tree.ts';
import type { LogSummary } from '../../core/folder/summary.ts';

/** An older generation of a row's session, as a link opens it: its file index. */
export interface OlderGeneration {
  index: number;
  rel: string;
  generation: number;
}

/** A table row: a session (with its subagents as sub-rows), or a file not read yet. */
export interface FolderRow {
  index: number;
  rel: string;
  summary: LogSummary | null;
  /** The session's cost from the price table (null: a model it used has no price); set by the view. */
  cost?: number | null;
  missingParent: boolean;
  /** The session's older generations, highest first (the row is its latest). */
  older: OlderGeneration[];
  generationFindings: GenerationFinding[];
  children: FolderRow[];
}

export const olderOf = (older: readonly GenerationFile[], indexOf: Map<string, number>): OlderGeneration[] =>
  older.flatMap((g) => (indexOf.has(g.file) ? [{ index: indexOf.get(g.file)!, rel: g.file, generation: g.generation }] : []));

export const rowsOf = (nodes: readonly SessionNode[], indexOf: Map<string, number>): FolderRow[] =>
  nodes.map((n) => ({
    index: indexOf.get(n.summary.file)!, rel: n.summary.file, summary: n.summary, missingParent: n.missingParent,
    older: olderOf(n.older, indexOf), generationFindings: n.generationFindings, children: rowsOf(n.children, indexOf),
  }));

/** What the cells need of the folder beyond their row. */
export interface FolderTableMeta {
  cancelled: boolean;
}

const col = createColumnHelper<FolderRow>();
const when = (ms: number | null | undefined) => (ms ? new Date(ms).toISOString().replace('T', ' ').slice(0, 16) : '');
const n = (v: number | undefined) => (v === undefined ? '' : v.toLocaleString('en-US'));
const bytes = (b: number) => (b < 1024 ? `${b} B` : b < 1 << 20 ? `${(b / 1024).toFixed(1)} KB` : `${(b / (1 << 20)).toFixed(1)} MB`);
/** Sorting on a field a file without a summary lacks puts that file last. */
const num = (pick: (s: LogSummary) => number | null) => (r: FolderRow) => (r.summary?.isLog ? pick(r.summary) ?? -1 : -1);

export const COLUMNS = [
  col.accessor((r) => r.summary?.title ?? r.rel, { id: 'title', header: 'Session', enableSorting: true }),
  col.accessor((r) => r.summary?.id ?? '', { id: 'id', header: 'Id', cell: (c) => <span className="mono" title={c.getValue()}>{c.getValue().slice(0, 8)}</span> }),
  col.accessor(num((s) => s.createdAt), { id: 'created', header: 'Created', cell: (c) => when(c.row.original.summary?.createdAt) }),
  col.accessor(num((s) => s.lastEventAt), { id: 'last', header: 'Last event', cell: (c) => when(c.row.original.summary?.lastEventAt) }),
  col.accessor(num((s) => s.format), { id: 'format', header: 'Format', cell: (c) => (c.row.original.summary?.isLog ? `v${c.row.original.summary.format}` : '') }),
  col.accessor(num((s) => s.events), { id: 'events', header: 'Events', cell: (c) => n(c.row.original.summary?.isLog ? c.row.original.summary.events : undefined) }),
  col.accessor(num((s) => s.turns), { id: 'turns', header: 'Turns', cell: (c) => n(c.row.original.summary?.isLog ? c.row.original.summary.turns : undefined) }),
  col.accessor(num((s) => s.calls), { id: 'calls', header: 'Calls', cell: (c) => n(c.row.original.summary?.isLog ? c.row.original.summary.calls : undefined) }),
  col.accessor((r) => r.summary?.models.join(', ') ?? '', { id: 'models', header: 'Models' }),
  col.accessor(num((s) => s.tokens.in), { id: 'tokensIn', header: 'Tokens in', cell: (c) => n(c.row.original.summary?.isLog ? c.row.original.summary.tokens.in : undefined) }),
  col.accessor(num((s) => s.tokens.out), { id: 'tokensOut', header: 'Tokens out', cell: (c) => n(c.row.original.summary?.isLog ? c.row.original.summary.tokens.out : undefined) }),
  col.accessor(num((s) => s.tokens.cacheReads), { id: 'cacheReads', header: 'Cache reads', cell: (c) => n(c.row.original.summary?.isLog ? c.row.original.summary.tokens.cacheReads : undefined) }),
  col.accessor((r) => (r.summary?.isLog ? r.cost ?? -1 : -1), { id: 'cost', header: 'Cost', cell: (c) => { const r = c.row.original; if (!r.summary?.isLog) return ''; return r.cost === null || r.cost === undefined ? <span className="muted" title="a model this session used has no price: add it under Charts → Price table">no price</span> : `$${r.cost < 0.01 ? r.cost.toFixed(4) : r.cost.toFixed(2)}`; } }),
  col.accessor(num((s) => s.compactions), { id: 'compactions', header: 'Compactions', cell: (c) => n(c.row.original.summary?.isLog ? c.row.original.summary.compactions : undefined) }),
  col.accessor(num((s) => s.findings.errors * 1e6 + s.findings.warnings), {
    id: 'findings', header: 'Findings',
    cell: (c) => { const f = c.row.original.summary?.isLog ? c.row.original.summary.findings : null; return f ? <span><span className={f.errors ? 'sev-error' : 'muted'}>{f.errors} err</span> · <span className={f.warnings ? 'sev-warning' : 'muted'}>{f.warnings} warn</span></span> : ''; },
  }),
  col.accessor((r) => r.summary?.lastTurn?.outcome ?? '', { id: 'outcome', header: 'Last turn' }),
  col.accessor((r) => (r.summary ? (r.summary.isLog ? r.summary.verdict : 'not a log') : ''), {
    id: 'verdict', header: 'Verdict',
    cell: (c) => {
      // A file without a summary is being read, or was left unread by a cancel.
      const value = c.getValue() || ((c.table.options.meta as FolderTableMeta | undefined)?.cancelled ? 'not read' : 'reading…');
      return <span className={`verdict-${value.replace(/[^a-z-]/g, '')}`} title={c.row.original.summary?.verdictSummary}>{value}</span>;
    },
  }),
  col.accessor((r) => r.summary?.size ?? 0, { id: 'size', header: 'Size', cell: (c) => bytes(c.getValue()) }),
];

/** What the filter box matches: file (and its older generations' files), title, id, models, verdict. */
export function filterText(r: FolderRow): string {
  const s = r.summary;
  return `${r.rel} ${r.older.map((g) => g.rel).join(' ')} ${s?.title ?? ''} ${s?.id ?? ''} ${s?.models.join(' ') ?? ''} ${s ? (s.isLog ? s.verdict : 'not a log') : ''}`.toLowerCase();
}
