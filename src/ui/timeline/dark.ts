import type { Theme } from '../../store/view.ts';

/** The system's colour-scheme query, made once: a lane redrawn on every step read it anew each time. */
let systemDark: MediaQueryList | null | undefined;

/**
 * Whether canvases should use dark colours. Read from the chosen theme, not
 * from the document: the page writes `data-theme` in its own effect, which
 * runs after the canvases' effects, so the attribute is one render late.
 */
export function isDark(theme: Theme): boolean {
  if (theme !== 'system') return theme === 'dark';
  systemDark ??= typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
  return systemDark?.matches === true;
}
