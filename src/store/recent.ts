/** Names (never contents) of recently opened logs, in local storage. */
const KEY = 'dsh-devtools.recent';
const MAX = 10;

export function recentLogs(): string[] {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function rememberRecent(name: string): void {
  try {
    localStorage.setItem(KEY, JSON.stringify([name, ...recentLogs().filter((n) => n !== name)].slice(0, MAX)));
  } catch {
    /* storage may be unavailable (private mode); recents are a convenience */
  }
}

export function clearRecent(): void {
  try { localStorage.removeItem(KEY); } catch { /* see above */ }
}
