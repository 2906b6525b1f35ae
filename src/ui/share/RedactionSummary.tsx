import type { RedactionHit } from '../../core/share/redact-log.ts';

/** What redaction replaced in a log about to be shared: the count and the first few, by line. */
export function RedactionSummary({ redacted, count, hits }: { redacted: boolean; count: number; hits: readonly RedactionHit[] }) {
  if (!redacted) return <p className="warn" role="status">Not redacted: every secret in the log goes out as it is.</p>;
  return (
    <div className="redaction-summary" role="status" aria-label="Redaction">
      <p><strong>{count}</strong> secret{count === 1 ? '' : 's'} redacted (API keys, bearer tokens, private keys, secret fields).</p>
      {hits.length > 0 && (
        <ul className="muted mono redaction-hits">
          {hits.slice(0, 8).map((h, i) => <li key={i}>line {h.line}: {h.what}</li>)}
          {count > 8 && <li>… and {count - 8} more</li>}
        </ul>
      )}
    </div>
  );
}
