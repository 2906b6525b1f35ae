import { editsToParam } from '../core/whatif/edits-link.ts';
import { useCompare } from './compare.ts';
import { useCursor } from './cursor.ts';
import { useSession } from './session.ts';
import { useLink, type LinkState } from './link.ts';

export type { LinkState };
import { SIDE_TABS, useView, type SideTab } from './view.ts';
import { useWhatIf } from './whatif.ts';
import { useNotes } from './notes.ts';
import { notesFromParam } from '../core/notes/notes-link.ts';
import { FINGERPRINT_PATTERN } from '../core/log/fingerprint.ts';

/**
 * The view state in the URL hash, so a copied link restores cursor,
 * selection, tabs and filters on the same log. The log itself is never in
 * the link: only its name and a short fingerprint (a hash of its first
 * 64 KiB and size), so a link opened without that log can say which log it
 * was made for; `?url=` names where the user's browser may fetch it.
 */
const TAB_IDS: readonly SideTab[] = SIDE_TABS.map(([id]) => id);

export function encodeHash(s: LinkState): string {
  const p = new URLSearchParams();
  if (s.log) p.set('log', s.log);
  if (s.fingerprint) p.set('h', s.fingerprint);
  if (s.cursor !== undefined) p.set('c', String(s.cursor));
  if (s.selected !== undefined && s.selected !== s.cursor) p.set('s', String(s.selected));
  if (s.tab && s.tab !== 'inspector') p.set('tab', s.tab);
  if (s.theme && s.theme !== 'system') p.set('theme', s.theme);
  if (s.search) p.set('q', s.search);
  if (s.hide?.length) p.set('hide', s.hide.join(','));
  if (s.columns) p.set('w', s.columns.map((c) => Math.round(c)).join(','));
  if (s.rawStreams) p.set('raw', '1');
  if (s.requests?.full) p.set('rq', '1');
  if (s.requests?.sort) p.set('rs', `${s.requests.sort.desc ? '-' : ''}${s.requests.sort.id}`);
  if (s.requests?.filter) p.set('rf', s.requests.filter);
  if (s.requests?.hidden?.length) p.set('rh', s.requests.hidden.join(','));
  if (s.compare) {
    p.set('cmp', String(s.compare.entry));
    if (s.compare.row !== undefined) p.set('cr', String(s.compare.row));
    if (s.compare.b !== undefined) p.set('cb', String(s.compare.b));
  }
  if (s.whatIf?.edits?.length) {
    p.set('wi', editsToParam(s.whatIf.edits));
    if (s.whatIf.folded) {
      p.set('wo', '1');
      if (s.whatIf.row !== undefined) p.set('cr', String(s.whatIf.row));
      if (s.whatIf.b !== undefined) p.set('cb', String(s.whatIf.b));
    }
  }
  return p.toString();
}

export function decodeHash(hash: string): LinkState {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const int = (k: string) => { const v = Number(p.get(k)); return p.has(k) && Number.isSafeInteger(v) && v >= 0 ? v : undefined; };
  const tab = p.get('tab');
  const theme = p.get('theme');
  const fingerprint = p.get('h');
  return {
    log: p.get('log') || undefined,
    fingerprint: fingerprint && FINGERPRINT_PATTERN.test(fingerprint) ? fingerprint : undefined,
    cursor: int('c'),
    cursorSeq: int('cs'),
    selected: int('s') ?? int('c'),
    tab: TAB_IDS.includes(tab as SideTab) ? (tab as SideTab) : undefined,
    theme: theme === 'light' || theme === 'dark' ? theme : undefined,
    search: p.get('q') ?? undefined,
    hide: p.get('hide')?.split(',').filter(Boolean),
    columns: parseColumns(p.get('w')),
    compare: int('cmp') === undefined ? undefined : { entry: int('cmp')!, row: int('cr'), b: int('cb') },
    rawStreams: p.get('raw') === '1' || undefined,
    requests: requestsOf(p),
    whatIf: whatIfOf(p, int),
    notes: p.get('notes') ?? undefined,
    cmd: commandIdOf(p.get('cmd')),
  };
}

/** A command id as a link may name one (the UI's table says whether it exists). */
function commandIdOf(value: string | null): string | undefined {
  return value !== null && /^[a-z][a-z0-9-]{0,63}$/.test(value) ? value : undefined;
}

/** The what-if part of a link: its edit list as it came (the worker checks it as untrusted input: core/whatif/edits-schema.ts). */
function whatIfOf(p: URLSearchParams, int: (k: string) => number | undefined): LinkState['whatIf'] {
  const param = p.get('wi');
  if (param === null) return undefined;
  const folded = p.get('wo') === '1';
  return { param, folded, ...(folded ? { row: int('cr'), b: int('cb') } : {}) };
}

/** The Requests view's part of a link; undefined when the link says nothing of it. */
function requestsOf(p: URLSearchParams): LinkState['requests'] {
  if (!['rq', 'rs', 'rf', 'rh'].some((k) => p.has(k))) return undefined;
  const sort = p.get('rs');
  const id = sort?.replace(/^-/, '');
  return {
    full: p.get('rq') === '1',
    sort: id && /^[a-zA-Z]{1,32}$/.test(id) ? { id, desc: sort!.startsWith('-') } : null,
    filter: p.get('rf') ?? '',
    hidden: p.get('rh')?.split(',').filter((c) => /^[a-zA-Z]{1,32}$/.test(c)) ?? [],
  };
}

function parseColumns(value: string | null): [number, number] | undefined {
  const parts = value?.split(',').map(Number);
  if (!parts || parts.length !== 2 || parts.some((n) => !Number.isFinite(n) || n < 10 || n > 80) || parts[0] + parts[1] > 90) return undefined;
  return [parts[0], parts[1]];
}

/** Applies the parts of a link that belong to the page, whatever log is open: theme and column widths. */
export function applyPageLink(s: LinkState): void {
  const view = useView.getState();
  if (s.theme) view.setTheme(s.theme);
  if (s.columns) view.setColumns(s.columns);
}

/** Applies the parts of a link that belong to its log: tab, search, filters (the cursor is applied by the load). */
export function applyLogLink(s: LinkState): void {
  const view = useView.getState();
  if (s.tab) view.setSideTab(s.tab);
  if (s.search) view.setSearch(s.search);
  if (s.hide) useView.setState({ hiddenFamilies: s.hide });
  if (s.rawStreams) view.setRawStreams(true);
  // A link's notes join the notes of the log it opens (the store waits for that log's own to be read).
  if (s.notes !== undefined) useNotes.getState().importNotes(notesFromParam(s.notes), 'the link');
  if (s.requests) {
    view.setRequestsFull(s.requests.full === true);
    view.setRequestsView({ sort: s.requests.sort ?? null, filter: s.requests.filter ?? '', hidden: s.requests.hidden ?? [] });
  }
}

/** Whether a loaded log is the one a link was made on (by fingerprint; by name for a link that has none). */
export function linkMatches(s: LinkState, log: { name: string; fingerprint: string }): boolean {
  if (s.fingerprint) return s.fingerprint === log.fingerprint;
  return s.log === undefined || s.log === log.name;
}

const URL_WRITE_DELAY_MS = 250;

/** Parameters kept after the view in the address (a link's own log: src/ui/share/, docs/share-and-privacy.md). */
let hashTail: () => string = () => '';
export function setHashTail(tail: () => string): void {
  hashTail = tail;
}

/** Keeps location.hash in step with the stores (replaceState: no history spam). */
export function startUrlSync(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Written once the state has been still for a moment: a held key moves the cursor every frame,
  // and the address bar need not follow each step.
  const write = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      // A link still waiting for its log stays in the address as it came.
      if (useLink.getState().pending) return;
      const { index, selected, count } = useCursor.getState();
      const v = useView.getState();
      const c = useCompare.getState();
      const compare = c.status === 'ready' && c.entry !== null ? { entry: c.entry, row: c.row, b: c.indexB } : undefined;
      const w = useWhatIf.getState();
      const shown = w.folded !== null && c.status === 'ready' && c.entry === null;
      const whatIf = w.edits.length ? { edits: w.edits, folded: shown, ...(shown ? { row: c.row, b: c.indexB } : {}) } : undefined;
      const log = useSession.getState().summary;
      const view = encodeHash({ whatIf, log: log?.name, fingerprint: log?.fingerprint, cursor: count ? index : undefined, selected: count ? selected : undefined, tab: v.sideTab, theme: v.theme, search: v.search, hide: v.hiddenFamilies, columns: v.columns, compare, rawStreams: v.rawStreams, requests: requestsLink(v) });
      const tail = hashTail();
      const hash = view && tail ? `${view}&${tail}` : view || tail;
      const url = `${location.pathname}${location.search}${hash ? `#${hash}` : ''}`;
      if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(null, '', url);
    }, URL_WRITE_DELAY_MS);
  };
  const a = useCursor.subscribe(write);
  const b = useView.subscribe(write);
  const c = useSession.subscribe((s, prev) => { if (s.summary !== prev.summary) write(); });
  const d = useLink.subscribe(write);
  const e = useCompare.subscribe(write);
  const f = useWhatIf.subscribe(write);
  return () => { a(); b(); c(); d(); e(); f(); };
}

/** Workspace entries already tried for a pending link (each is opened at most once looking for it). */
const tried = new WeakSet<object>();

/**
 * After a load: a pending link whose log is now open gets its view (tab,
 * search, filters, cursor, selection); one whose log is another session of
 * the workspace (by name) opens that session; otherwise it keeps waiting
 * and the notice names its log.
 */
export function resolvePendingLink(): void {
  const link = useLink.getState().pending;
  const session = useSession.getState();
  const summary = session.summary;
  if (!link || !summary || session.status !== 'ready') return;
  if (linkMatches(link, summary)) {
    useLink.getState().setPending(null);
    applyLogLink(link);
    const cursor = useCursor.getState();
    if (link.cursor !== undefined) cursor.reset(link.cursor);
    if (link.selected !== undefined) cursor.select(link.selected);
    return;
  }
  const k = session.workspace.findIndex((w, i) => i !== session.active && w.source.name === link.log && !tried.has(w.source));
  if (k >= 0) {
    tried.add(session.workspace[k].source);
    void session.switchTo(k);
  }
}

/** The Requests view's state for the link: nothing while it is as it starts. */
function requestsLink(v: ReturnType<typeof useView.getState>): LinkState['requests'] {
  const r = v.requestsView;
  if (!v.requestsFull && !r.sort && !r.filter && !r.hidden.length) return undefined;
  return { full: v.requestsFull, sort: r.sort, filter: r.filter, hidden: r.hidden };
}
