import { useState } from 'react';

/**
 * A collapsible JSON tree. Every value is rendered as React text nodes —
 * log content is untrusted and never becomes HTML.
 */
export function JsonView({ value, name, depth = 0, open = 2 }: { value: unknown; name?: string; depth?: number; open?: number }) {
  const [expanded, setExpanded] = useState(depth < open);
  const label = name !== undefined ? <span className="json-key">{name}: </span> : null;
  if (value === null || typeof value !== 'object') {
    return (
      <div className="json-row" style={{ paddingLeft: depth * 12 }}>
        {label}
        <span className={`json-${value === null ? 'null' : typeof value}`}>{typeof value === 'string' ? JSON.stringify(value) : String(value)}</span>
      </div>
    );
  }
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  const brackets = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return (
    <div>
      <div className="json-row json-toggle" style={{ paddingLeft: depth * 12 }} onClick={() => setExpanded(!expanded)} role="button" aria-expanded={expanded}>
        <span className="json-caret">{expanded ? '▾' : '▸'}</span>
        {label}
        <span className="json-punct">{brackets[0]}{expanded ? '' : ` ${entries.length} ${brackets[1]}`}</span>
      </div>
      {expanded && entries.map(([k, v]) => <JsonView key={k} name={k} value={v} depth={depth + 1} open={open} />)}
      {expanded && <div className="json-row json-punct" style={{ paddingLeft: depth * 12 }}>{brackets[1]}</div>}
    </div>
  );
}
