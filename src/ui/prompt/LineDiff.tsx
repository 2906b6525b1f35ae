import type { LinePart } from '../../core/prompt/context-diff.ts';

/** A line diff rendered as text: additions and removals marked, unchanged runs folded. */
export function LineDiff({ parts, context = 3 }: { parts: LinePart[]; context?: number }) {
  const rows: { kind: LinePart['kind'] | 'fold'; text: string }[] = [];
  for (const part of parts) {
    const lines = part.text.replace(/\n$/, '').split('\n');
    if (part.kind === 'same' && lines.length > context * 2 + 1) {
      rows.push(...lines.slice(0, context).map((text) => ({ kind: 'same' as const, text })));
      rows.push({ kind: 'fold', text: `… ${lines.length - context * 2} unchanged lines …` });
      rows.push(...lines.slice(-context).map((text) => ({ kind: 'same' as const, text })));
    } else {
      rows.push(...lines.map((text) => ({ kind: part.kind, text })));
    }
  }
  return (
    <pre className="line-diff">
      {rows.map((r, i) => (
        <div key={i} className={`diff-${r.kind}`}>{r.kind === 'added' ? '+ ' : r.kind === 'removed' ? '- ' : r.kind === 'fold' ? '' : '  '}{r.text}</div>
      ))}
    </pre>
  );
}
