import './share.css';
import { useSession } from '../../store/session.ts';
import { useShare } from '../../store/share.ts';
import { openShareOrigin } from '../../store/shared-log.ts';

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/**
 * Where the open log came from when it came with the page (docs/share-and-privacy.md): this
 * file or the link, and whether its secrets were redacted. Opening another
 * log (Open log, a drop) replaces it and the notice goes.
 */
export function ShareNotice() {
  // Re-rendered as the session and the origin change; the origin counts only while its log is open.
  useSession((s) => s.summary);
  useShare((s) => s.origin);
  const origin = openShareOrigin();
  if (!origin) return null;
  const where = origin.kind === 'file' ? 'embedded in this file' : 'carried inside this link';
  return (
    <div className="share-notice" role="status" aria-label="Where this log came from">
      <span>
        <strong className="mono">{origin.name}</strong> is {where} ({kb(origin.bytes)} compressed); nothing was fetched.{' '}
        {origin.redacted
          ? <>It was redacted when shared: <strong>{origin.redactions} secret{origin.redactions === 1 ? '' : 's'} replaced</strong> by <span className="mono">[REDACTED…]</span>.</>
          : <strong className="warn">It was shared without redaction: it may hold secrets.</strong>}
        {' '}<span className="muted">Open log replaces it.</span>
      </span>
    </div>
  );
}
