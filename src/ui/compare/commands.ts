import { useCompare } from '../../store/compare.ts';
import { useView } from '../../store/view.ts';
import type { Command } from '../commands.ts';

/** The keyboard in compare mode (docs/compare.md): the shared cursor steps by aligned row. */
export const COMPARE_COMMANDS: Command[] = [
  { id: 'compare-next-row', label: 'Next aligned call (both sides)', keys: ['ArrowRight', 'j', ']'], run: () => useCompare.getState().stepRow(1) },
  { id: 'compare-prev-row', label: 'Previous aligned call (both sides)', keys: ['ArrowLeft', 'k', '['], run: () => useCompare.getState().stepRow(-1) },
  { id: 'compare-next-difference', label: 'Next difference', keys: ['e', 'n'], run: () => useCompare.getState().stepDifference(1) },
  { id: 'compare-prev-difference', label: 'Previous difference', keys: ['Shift+E', 'Shift+N'], run: () => useCompare.getState().stepDifference(-1) },
  { id: 'compare-first', label: 'First aligned call', keys: ['Home'], run: () => useCompare.getState().seekRow(0) },
  { id: 'compare-last', label: 'Last aligned call', keys: ['End'], run: () => useCompare.getState().seekRow(Number.MAX_SAFE_INTEGER) },
  { id: 'compare-exit', label: 'Leave compare mode', keys: ['x'], run: () => useCompare.getState().exit() },
  { id: 'help', label: 'Keyboard shortcuts', keys: ['?'], run: () => useView.getState().setOverlay('help') },
  { id: 'close', label: 'Close overlay', keys: ['Escape'], run: () => useView.getState().setOverlay(null) },
];

export function compareCommandForKey(key: string): Command | undefined {
  return COMPARE_COMMANDS.find((c) => c.keys.includes(key));
}

export const compareCommand = (id: string): Command => COMPARE_COMMANDS.find((c) => c.id === id)!;
