import { create } from 'zustand';
import type { NavKind } from '../core/replay/navigate.ts';
import { useCursor } from '../store/cursor.ts';
import { useSession } from '../store/session.ts';
import { useView } from '../store/view.ts';
import { findingsWithoutEvent, nextTarget } from './nav-targets.ts';

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

/** A short message about the last command that could not do anything ("no next replace"), shown by the scrubber. */
export const useFlash = create<{ text: string | null; at: number; say(text: string | null): void }>((set) => ({
  text: null,
  at: 0,
  say: (text) => set({ text, at: Date.now() }),
}));

/** A step of the cursor, found in the page's copy of the replay columns (no round trip to the worker). */
function step(kind: NavKind, label: string, dir: 1 | -1): void {
  const summary = useSession.getState().summary;
  const { index, seek } = useCursor.getState();
  if (!summary) return;
  const next = nextTarget(summary, kind, index, dir);
  if (next !== null) {
    seek(next);
    if (useFlash.getState().text !== null) useFlash.getState().say(null);
    return;
  }
  const unplaced = kind === 'diagnostic' ? findingsWithoutEvent(summary) : 0;
  useFlash.getState().say(`no ${dir === 1 ? 'next' : 'previous'} ${label}${unplaced ? ` (${unplaced} finding${unplaced === 1 ? ' is' : 's are'} on a line with no event to go to: see the Diagnostics tab)` : ''}`);
}

const nav = (kind: NavKind, label: string, nextKeys: string[], prevKeys: string[]): Command[] => [
  { id: `next-${kind}`, label: `Next ${label}`, keys: nextKeys, run: () => step(kind, label, 1) },
  { id: `prev-${kind}`, label: `Previous ${label}`, keys: prevKeys, run: () => step(kind, label, -1) },
];

/** Closes an overlay, and leaves a text box (so the next key is a command again). */
function escape(): void {
  useView.getState().setOverlay(null);
  const active = document.activeElement;
  if (active instanceof HTMLElement && active.matches('input, textarea, select')) active.blur();
}

export const COMMANDS: Command[] = [
  ...nav('event', 'event', ['ArrowRight', 'j'], ['ArrowLeft', 'k']),
  ...nav('surface', 'surface change', ['Shift+ArrowRight'], ['Shift+ArrowLeft']),
  ...nav('step', 'step', ['l'], ['h']),
  ...nav('turn', 'turn', ['Shift+L', 'PageDown'], ['Shift+H', 'PageUp']),
  ...nav('request', 'model call', [']'], ['[']),
  ...nav('replace', 'replace', ['.'], [',']),
  ...nav('diagnostic', 'finding', ['e'], ['Shift+E']),
  { id: 'first', label: 'First event', keys: ['Home'], run: () => useCursor.getState().seek(0) },
  { id: 'last', label: 'Last event', keys: ['End'], run: () => { const c = useCursor.getState(); c.seek(c.count - 1); } },
  { id: 'play', label: 'Play / pause', keys: [' '], run: () => { const c = useCursor.getState(); c.setPlaying(!c.playing); } },
  { id: 'goto', label: 'Go to seq…', keys: ['g'], run: () => useView.getState().setOverlay('goto') },
  { id: 'search', label: 'Search events', keys: ['/'], run: () => document.querySelector<HTMLInputElement>('input[aria-label="Find events"]')?.focus() },
  { id: 'help', label: 'Keyboard shortcuts', keys: ['?'], run: () => useView.getState().setOverlay('help') },
  { id: 'close', label: 'Close overlay / leave a text box', keys: ['Escape'], run: escape },
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

/** Keys a control moves itself with (a separator, a slider), and keys a button or check box acts on. */
const MOVE_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown', 'Shift+ArrowLeft', 'Shift+ArrowRight', 'Shift+ArrowUp', 'Shift+ArrowDown']);
const PRESS_KEYS = new Set([' ', 'Enter']);

/**
 * Whether the focused element keeps `key` for itself (docs/open-and-navigate.md): a text box,
 * select or dialog keeps every key but Escape; a separator or a slider its
 * arrows (the replay cursor's slider excepted: its arrows are the cursor's
 * commands); a button, link, tab or check box its Space and Enter.
 */
export function elementOwnsKey(target: Element | null, key: string): boolean {
  if (!target || target === document.body) return false;
  if (target.closest('[data-global-keys]')) return false;
  const textual = target.matches('textarea, select, [contenteditable=""], [contenteditable="true"]')
    || (target instanceof HTMLInputElement && !['range', 'checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type));
  if (textual || target.closest('[role="dialog"]')) return key !== 'Escape';
  if (target.matches('input[type=range], [role="slider"], [role="separator"]')) return MOVE_KEYS.has(key);
  if (target.matches('button, a[href], summary, input, [role="tab"], [role="radio"], [role="button"]')) return PRESS_KEYS.has(key);
  return false;
}
