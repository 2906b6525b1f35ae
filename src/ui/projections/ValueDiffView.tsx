import type { ValueDiff } from '../../core/projections/value-diff.ts';

/** One entry of a list as a line of text: a todo as its status and content, anything else as JSON. */
function entryText(v: unknown): string {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if (typeof o.content === 'string') return `${typeof o.status === 'string' ? `[${o.status}] ` : ''}${o.content}`;
  }
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** An edited entry: "content: pending → completed" when only a todo's status moved, else before → after. */
function editText(before: unknown, after: unknown): string {
  const b = before as Record<string, unknown> | null;
  const a = after as Record<string, unknown> | null;
  if (b && a && typeof b === 'object' && typeof a === 'object' && typeof a.content === 'string' && b.content === a.content && typeof b.status === 'string' && typeof a.status === 'string') {
    return `${a.content}: ${b.status} → ${a.status}`;
  }
  return `${entryText(before)} → ${entryText(after)}`;
}

/** What a projection change changed: list entries added, removed and edited, or a line diff of the JSON. */
export function ValueDiffView({ diff }: { diff: ValueDiff }) {
  if (diff.kind === 'list') {
    const none = diff.added.length + diff.removed.length + diff.edited.length === 0;
    return (
      <ul className="value-diff" aria-label="What changed">
        {none && <li className="muted">the entries were reordered</li>}
        {diff.added.map((e) => <li key={`a${e.index}`} className="diff-added">+ {entryText(e.value)}</li>)}
        {diff.removed.map((e) => <li key={`r${e.index}`} className="diff-removed">− {entryText(e.value)}</li>)}
        {diff.edited.map((e) => <li key={`e${e.index}`} className="diff-edited">✎ {editText(e.before, e.after)}</li>)}
      </ul>
    );
  }
  if (!diff.lines) return <div className="muted value-diff" aria-label="What changed">the value changed (too large to show a diff)</div>;
  return (
    <pre className="line-diff value-diff" aria-label="What changed">
      {diff.lines.map((p, i) => <span key={i} className={p.kind === 'added' ? 'diff-added' : p.kind === 'removed' ? 'diff-removed' : 'diff-same'}>{p.text}</span>)}
    </pre>
  );
}
