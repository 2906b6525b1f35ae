import { useMemo } from 'react';
import { highlightWords } from '../../core/search/query.ts';
import { useView } from '../../store/view.ts';

/** The words of the events search, as the views that mark them need them (filters mark nothing). */
export function useSearchWords(): string[] {
  const search = useView((s) => s.search);
  return useMemo(() => highlightWords(search), [search]);
}

/** Whether `text` holds one of `words` (case-insensitive). */
export function hasWord(text: string, words: readonly string[]): boolean {
  if (!words.length) return false;
  const lower = text.toLowerCase();
  return words.some((w) => lower.includes(w));
}

/** Text with the search's words marked (search in content); still text only: the parts are strings, never markup. */
export function Marked({ text, words }: { text: string; words: readonly string[] }) {
  const parts = useMemo(() => splitMarked(text, words), [text, words]);
  if (parts.length === 1 && !parts[0].hit) return <>{text}</>;
  return <>{parts.map((p, i) => (p.hit ? <mark key={i} className="search-mark">{p.text}</mark> : p.text))}</>;
}

/** `text` cut at every occurrence of a word (the longest word first where two start at once). */
export function splitMarked(text: string, words: readonly string[]): { text: string; hit: boolean }[] {
  if (!words.length || !text) return [{ text, hit: false }];
  const lower = text.toLowerCase();
  const sorted = [...words].sort((a, b) => b.length - a.length);
  const out: { text: string; hit: boolean }[] = [];
  let plain = 0;
  for (let i = 0; i < lower.length;) {
    const w = sorted.find((x) => lower.startsWith(x, i));
    if (!w) {
      // Jump to the next place any word could start.
      let next = lower.length;
      for (const x of sorted) { const k = lower.indexOf(x, i + 1); if (k >= 0 && k < next) next = k; }
      i = next;
      continue;
    }
    if (i > plain) out.push({ text: text.slice(plain, i), hit: false });
    out.push({ text: text.slice(i, i + w.length), hit: true });
    i += w.length;
    plain = i;
  }
  if (plain < text.length) out.push({ text: text.slice(plain), hit: false });
  return out;
}
