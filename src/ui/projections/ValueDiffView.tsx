import type { ValueDiff } from '../../core/projections/value-diff.ts';

/** One entry of a list as a line of text: a todo as its status and content, anything else as JSON. */
function entryText(v: unknown): string {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if (typeof o.content === 'string') return `${typeof o.status === 'string' ? `[${o.status}] ` : ''}${o.content}`;
  }
  return typeof v === 'string' ? v : JSON.stringify(v);
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
        {diff.edited.map((e) => <li key={`e${e.index}`} className="diff-edited">✎ {entryText(e.before)} → {entryText(e.after)}</li>)}
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
