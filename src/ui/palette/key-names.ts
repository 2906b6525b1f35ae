/** A key as the shortcut lists show it (the table keeps KeyboardEvent names). */
const KEY_NAMES: Record<string, string> = {
  ' ': 'Space', ArrowRight: '→', ArrowLeft: '←', 'Shift+ArrowRight': 'Shift+→', 'Shift+ArrowLeft': 'Shift+←', Escape: 'Esc',
};

const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export function keyName(key: string): string {
  const named = KEY_NAMES[key] ?? key;
  return MAC ? named.replace(/^Ctrl\+K$/, '⌘K') : named;
}
