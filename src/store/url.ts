import { useCompare } from './compare.ts';
import { useCursor } from './cursor.ts';
import { useView, type SideTab, type Theme } from './view.ts';

/**
 * The view state in the URL hash, so a copied link restores cursor,
 * selection, tabs and filters on the same log. The log itself is never in
 * the link: only `?url=` names where the user's browser may fetch it.
 */
const SIDE_TABS: SideTab[] = ['inspector', 'diagnostics', 'messages', 'projections', 'prompt', 'requests'];

export interface LinkState {
  /** `c`: the cursor's event index. */
  cursor?: number;
  /**
   * `cs`: the cursor as a seq, for links made without the loaded log at hand
   * (`dsh-devtools open --at SEQ`); used when `c` is absent. Read, never
   * written: once the log loads the hash carries `c` again.
   */
  cursorSeq?: number;
  selected?: number;
  tab?: SideTab;
  theme?: Theme;
  search?: string;
  hide?: string[];
  columns?: [number, number];
  /** Compare mode (issue #20): B's workspace entry, the shared cursor's row and B's cursor (A's is `cursor`). */
  compare?: { entry: number; row?: number; b?: number };
}

export function encodeHash(s: LinkState): string {
  const p = new URLSearchParams();
  if (s.cursor !== undefined) p.set('c', String(s.cursor));
  if (s.selected !== undefined && s.selected !== s.cursor) p.set('s', String(s.selected));
  if (s.tab && s.tab !== 'inspector') p.set('tab', s.tab);
  if (s.theme && s.theme !== 'system') p.set('theme', s.theme);
  if (s.search) p.set('q', s.search);
  if (s.hide?.length) p.set('hide', s.hide.join(','));
  if (s.columns) p.set('w', s.columns.map((c) => Math.round(c)).join(','));
  if (s.compare) {
    p.set('cmp', String(s.compare.entry));
    if (s.compare.row !== undefined) p.set('cr', String(s.compare.row));
    if (s.compare.b !== undefined) p.set('cb', String(s.compare.b));
  }
  return p.toString();
}

export function decodeHash(hash: string): LinkState {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const int = (k: string) => { const v = Number(p.get(k)); return p.has(k) && Number.isSafeInteger(v) && v >= 0 ? v : undefined; };
  const tab = p.get('tab');
  const theme = p.get('theme');
  return {
    cursor: int('c'),
    cursorSeq: int('cs'),
    selected: int('s') ?? int('c'),
    tab: SIDE_TABS.includes(tab as SideTab) ? (tab as SideTab) : undefined,
    theme: theme === 'light' || theme === 'dark' ? theme : undefined,
    search: p.get('q') ?? undefined,
    hide: p.get('hide')?.split(',').filter(Boolean),
    columns: parseColumns(p.get('w')),
    compare: int('cmp') === undefined ? undefined : { entry: int('cmp')!, row: int('cr'), b: int('cb') },
  };
}

function parseColumns(value: string | null): [number, number] | undefined {
  const parts = value?.split(',').map(Number);
  if (!parts || parts.length !== 2 || parts.some((n) => !Number.isFinite(n) || n < 10 || n > 80) || parts[0] + parts[1] > 90) return undefined;
  return [parts[0], parts[1]];
}

/** Applies a decoded link to the stores (cursor is applied after the log loads). */
export function applyViewLink(s: LinkState): void {
  const view = useView.getState();
  if (s.tab) view.setSideTab(s.tab);
  if (s.theme) view.setTheme(s.theme);
  if (s.search) view.setSearch(s.search);
  if (s.hide) useView.setState({ hiddenFamilies: s.hide });
  if (s.columns) view.setColumns(s.columns);
}

const URL_WRITE_DELAY_MS = 250;

/** Keeps location.hash in step with the stores (replaceState: no history spam). */
export function startUrlSync(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Written once the state has been still for a moment: a held key moves the cursor every frame,
  // and the address bar need not follow each step.
  const write = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const { index, selected, count } = useCursor.getState();
      const v = useView.getState();
      const c = useCompare.getState();
      const compare = c.status === 'ready' && c.entry !== null ? { entry: c.entry, row: c.row, b: c.indexB } : undefined;
      const hash = encodeHash({ cursor: count ? index : undefined, selected: count ? selected : undefined, tab: v.sideTab, theme: v.theme, search: v.search, hide: v.hiddenFamilies, columns: v.columns, compare });
      const url = `${location.pathname}${location.search}${hash ? `#${hash}` : ''}`;
      if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(null, '', url);
    }, URL_WRITE_DELAY_MS);
  };
  const a = useCursor.subscribe(write);
  const b = useView.subscribe(write);
  const c = useCompare.subscribe(write);
  return () => { a(); b(); c(); };
}
