import type { NavKind } from '../core/replay/replay-index.ts';
import { useCursor } from '../store/cursor.ts';
import { useSession } from '../store/session.ts';

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

async function step(kind: NavKind, dir: 1 | -1): Promise<void> {
  const client = useSession.getState().client;
  const { index, seek } = useCursor.getState();
  if (!client || !useSession.getState().summary) return;
  const next = await client.navigate(kind, index, dir);
  if (next !== null) seek(next);
}

const nav = (kind: NavKind, label: string, nextKey: string, prevKey: string): Command[] => [
  { id: `next-${kind}`, label: `Next ${label}`, keys: [nextKey], run: () => void step(kind, 1) },
  { id: `prev-${kind}`, label: `Previous ${label}`, keys: [prevKey], run: () => void step(kind, -1) },
];

export const COMMANDS: Command[] = [
  ...nav('event', 'event', 'ArrowRight', 'ArrowLeft'),
  ...nav('surface', 'surface change', 'Shift+ArrowRight', 'Shift+ArrowLeft'),
  ...nav('step', 'step', 'j', 'k'),
  ...nav('turn', 'turn', 'Shift+J', 'Shift+K'),
  ...nav('request', 'model call', 'm', 'Shift+M'),
  ...nav('replace', 'replace', 'r', 'Shift+R'),
  ...nav('diagnostic', 'diagnostic', 'e', 'Shift+E'),
  { id: 'first', label: 'First event', keys: ['Home'], run: () => useCursor.getState().seek(0) },
  { id: 'last', label: 'Last event', keys: ['End'], run: () => { const c = useCursor.getState(); c.seek(c.count - 1); } },
  { id: 'play', label: 'Play / pause', keys: [' '], run: () => { const c = useCursor.getState(); c.setPlaying(!c.playing); } },
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
