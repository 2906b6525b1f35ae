import type { NavKind } from '../core/replay/navigate.ts';
import { navigate } from '../core/replay/navigate.ts';
import { useCursor } from '../store/cursor.ts';
import { useSession } from '../store/session.ts';
import { useView } from '../store/view.ts';

/**
 * Every scrubber action is a named command with a stable id and a key, so the
 * keyboard, the buttons and the tests all call the same thing.
 */
export interface Command {
  id: string;
  label: string;
  keys: string[];
  run(): void;
}

/** A step of the cursor, found in the page's copy of the replay columns (no round trip to the worker). */
function step(kind: NavKind, dir: 1 | -1): void {
  const summary = useSession.getState().summary;
  const { index, seek } = useCursor.getState();
  if (!summary) return;
  const next = navigate(summary.columns, summary.typeNames, summary.count, kind, index, dir, kind === 'diagnostic' ? diagnosticIndexes(summary) : undefined);
  if (next !== null) seek(next);
}

/** Event indexes that carry a finding (computed once per loaded log). */
const findingIndexes = new WeakMap<object, ReadonlySet<number>>();
function diagnosticIndexes(summary: NonNullable<ReturnType<typeof useSession.getState>['summary']>): ReadonlySet<number> {
  let set = findingIndexes.get(summary);
  if (!set) {
    set = new Set(summary.diagnostics.flatMap((d) => (d.index !== undefined && d.seq !== undefined ? [d.index] : [])));
    findingIndexes.set(summary, set);
  }
  return set;
}

const nav = (kind: NavKind, label: string, nextKeys: string[], prevKeys: string[]): Command[] => [
  { id: `next-${kind}`, label: `Next ${label}`, keys: nextKeys, run: () => step(kind, 1) },
  { id: `prev-${kind}`, label: `Previous ${label}`, keys: prevKeys, run: () => step(kind, -1) },
];

export const COMMANDS: Command[] = [
  ...nav('event', 'event', ['ArrowRight', 'j'], ['ArrowLeft', 'k']),
  ...nav('surface', 'surface change', ['Shift+ArrowRight'], ['Shift+ArrowLeft']),
  ...nav('step', 'step', ['l'], ['h']),
  ...nav('turn', 'turn', ['Shift+L', 'PageDown'], ['Shift+H', 'PageUp']),
  ...nav('request', 'model call', [']'], ['[']),
  ...nav('replace', 'replace', ['.'], [',']),
  ...nav('diagnostic', 'diagnostic', ['e'], ['Shift+E']),
  { id: 'first', label: 'First event', keys: ['Home'], run: () => useCursor.getState().seek(0) },
  { id: 'last', label: 'Last event', keys: ['End'], run: () => { const c = useCursor.getState(); c.seek(c.count - 1); } },
  { id: 'play', label: 'Play / pause', keys: [' '], run: () => { const c = useCursor.getState(); c.setPlaying(!c.playing); } },
  { id: 'goto', label: 'Go to seq…', keys: ['g'], run: () => useView.getState().setOverlay('goto') },
  { id: 'search', label: 'Search events', keys: ['/'], run: () => document.querySelector<HTMLInputElement>('input[aria-label="Find events"]')?.focus() },
  { id: 'help', label: 'Keyboard shortcuts', keys: ['?'], run: () => useView.getState().setOverlay('help') },
  { id: 'close', label: 'Close overlay', keys: ['Escape'], run: () => useView.getState().setOverlay(null) },
];

export function keyOf(e: KeyboardEvent): string {
  const key = e.key.length === 1 && e.shiftKey ? e.key.toUpperCase() : e.key;
  const named = e.shiftKey && (key.length > 1 || /[A-Z]/.test(key)) ? `Shift+${key}` : key;
  return named;
}

export function commandForKey(key: string): Command | undefined {
  return COMMANDS.find((c) => c.keys.includes(key));
}

export const command = (id: string): Command => COMMANDS.find((c) => c.id === id)!;
