import { useCompare } from '../../store/compare.ts';
import { useSession } from '../../store/session.ts';
import { SIDE_TABS, useView, type Theme } from '../../store/view.ts';
import { COMMANDS, type Command } from '../commands.ts';
import { COMPARE_COMMANDS } from '../compare/commands.ts';
import { useFollow } from '../follow/follow-store.ts';
import { addNoteAtCursor, bookmarkCursor, stepNote } from '../notes/actions.ts';

/**
 * Every named command of the app (docs/notes.md): the keyboard, the command
 * palette, the `?` overlay and a link's `#cmd=` all read this one table.
 * Ids are stable: a link or a habit may name them. A command with no key is
 * reached from the palette. `when` says whether it can run now (a greyed
 * palette row says why not).
 */
export interface AppCommand extends Command {
  group: 'Cursor' | 'Notes' | 'Panels' | 'Go to' | 'Log' | 'Compare' | 'View' | 'Help';
  /** Null when it can run; else why not, in a few words. */
  when?: () => string | null;
  /** Words the palette matches besides the label. */
  also?: string;
}

const hasLog = (): string | null => {
  const s = useSession.getState().summary;
  return !s ? 'no log is open' : s.partial ? 'the log is still being read' : null;
};
const notComparing = (): string | null => (useCompare.getState().status !== 'off' ? 'leave compare mode first' : hasLog());

const CURSOR_GROUP: Record<string, AppCommand['group']> = { goto: 'Go to', search: 'Go to', help: 'Help', close: 'Help' };

const THEMES: [Theme, string][] = [['light', 'Light'], ['dark', 'Dark'], ['system', 'System']];

const view = () => useView.getState();
const dialog = (d: Parameters<ReturnType<typeof useView.getState>['setDialog']>[0]) => () => view().setDialog(d);
const click = (selector: string) => () => document.querySelector<HTMLElement>(selector)?.click();

export const APP_COMMANDS: AppCommand[] = [
  ...COMMANDS.map((c): AppCommand => ({ ...c, group: CURSOR_GROUP[c.id] ?? 'Cursor', when: c.id === 'help' || c.id === 'close' ? undefined : hasLog })),
  { id: 'goto-call', label: 'Go to model call…', keys: [], group: 'Go to', run: () => view().setOverlay('goto', 'call '), when: hasLog, also: 'request' },
  { id: 'goto-turn', label: 'Go to turn…', keys: [], group: 'Go to', run: () => view().setOverlay('goto', 'turn '), when: hasLog },
  { id: 'add-note', label: 'Add a note at the cursor…', keys: ['m'], group: 'Notes', run: addNoteAtCursor, when: hasLog, also: 'comment annotate' },
  { id: 'bookmark', label: 'Bookmark the cursor', keys: ['Shift+M'], group: 'Notes', run: bookmarkCursor, when: hasLog, also: 'flag mark' },
  { id: 'next-note', label: 'Next note or bookmark', keys: ['n'], group: 'Notes', run: () => stepNote(1), when: hasLog },
  { id: 'prev-note', label: 'Previous note or bookmark', keys: ['Shift+N'], group: 'Notes', run: () => stepNote(-1), when: hasLog },
  ...SIDE_TABS.map(([tab, label]): AppCommand => ({ id: `tab-${tab}`, label: `Show the ${label} tab`, keys: [], group: 'Panels', run: () => { view().setRequestsFull(false); view().setSideTab(tab); }, when: hasLog, also: 'panel' })),
  { id: 'requests-full', label: 'Requests view, whole window (toggle)', keys: ['Shift+R'], group: 'Panels', run: () => { const v = view(); v.setSideTab('requests'); v.setRequestsFull(!v.requestsFull); }, when: notComparing, also: 'calls table' },
  { id: 'surface-mode', label: 'Surface panel: model view / transcript (toggle)', keys: [], group: 'Panels', run: () => view().setSurfaceMode(view().surfaceMode === 'surface' ? 'transcript' : 'surface'), when: hasLog },
  { id: 'raw-streams', label: 'Events list: streamed deltas as rows (toggle)', keys: [], group: 'Panels', run: () => view().setRawStreams(!view().rawStreams), when: hasLog, also: 'raw chunks' },
  { id: 'open-log', label: 'Open a log file…', keys: [], group: 'Log', run: click('.toolbar > button[title^="Open a .jsonl"]'), also: 'file picker load' },
  { id: 'paste-log', label: 'Paste a log…', keys: [], group: 'Log', run: dialog('paste') },
  { id: 'open-url', label: 'Open a log from a URL…', keys: [], group: 'Log', run: dialog('url') },
  { id: 'recent', label: 'Recent logs', keys: [], group: 'Log', run: dialog('recent') },
  { id: 'export', label: 'Export…', keys: [], group: 'Log', run: dialog('export'), when: hasLog, also: 'download json markdown opentelemetry otlp' },
  { id: 'export-html', label: 'Export self-contained HTML…', keys: [], group: 'Log', run: dialog('export-html'), when: hasLog, also: 'share single file' },
  { id: 'copy-link', label: 'Copy link…', keys: [], group: 'Log', run: dialog('link'), also: 'share url' },
  { id: 'follow', label: 'Follow the log as it grows (toggle)', keys: [], group: 'Log', run: () => { const f = useFollow.getState(); void (f.status === 'on' ? f.stop() : f.start()); }, when: hasLog, also: 'tail live' },
  { id: 'compare', label: 'Compare with another run…', keys: [], group: 'Compare', run: dialog('compare'), when: notComparing, also: 'diff' },
  { id: 'exit-compare', label: 'Leave compare mode', keys: [], group: 'Compare', run: () => useCompare.getState().exit(), when: () => (useCompare.getState().status === 'off' ? 'not comparing' : null) },
  ...THEMES.map(([theme, label]): AppCommand => ({ id: `theme-${theme}`, label: `Theme: ${label}`, keys: [], group: 'View', run: () => view().setTheme(theme), also: 'colors appearance' })),
  { id: 'palette', label: 'Command palette', keys: ['Ctrl+K', 'Ctrl+Shift+P'], group: 'Help', run: () => view().setOverlay('palette'), also: 'commands' },
];

/** The commands compare mode's keys run (its own cursor), with every command that is not the single log's cursor. */
export function commandsNow(): AppCommand[] {
  if (useCompare.getState().status !== 'ready') return APP_COMMANDS;
  const own = new Set(COMPARE_COMMANDS.map((c) => c.id));
  const rest = APP_COMMANDS.filter((c) => c.group !== 'Cursor' && c.group !== 'Notes' && !own.has(c.id) && c.id !== 'goto' && c.id !== 'goto-call' && c.id !== 'goto-turn');
  return [...COMPARE_COMMANDS.map((c): AppCommand => ({ ...c, group: c.id === 'help' || c.id === 'close' ? 'Help' : 'Compare' })), ...rest];
}

/** The command a key runs now (keys in a table are unique within it). */
export function commandForKeyNow(key: string): AppCommand | undefined {
  return commandsNow().find((c) => c.keys.includes(key));
}

/** A command by its stable id, in either table. */
export function commandById(id: string): AppCommand | undefined {
  return commandsNow().find((c) => c.id === id) ?? APP_COMMANDS.find((c) => c.id === id);
}

/**
 * Runs a command named by id (a link's `#cmd=`, the palette); says why when
 * it does not exist or cannot run now.
 */
export function runCommand(id: string): string | null {
  const c = commandById(id);
  if (!c) return `no command “${id}” (the palette lists them, with their ids)`;
  // A single log's command (a note, its cursor) has no place in compare mode, whose cursors are its own.
  const why = (!commandsNow().some((k) => k.id === c.id) ? 'not in compare mode' : null) ?? c.when?.() ?? null;
  if (why) return `${c.label}: ${why}`;
  c.run();
  return null;
}
