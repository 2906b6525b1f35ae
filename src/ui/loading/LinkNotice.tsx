import { useRef } from 'react';
import { useLink } from '../../store/link.ts';
import { useSession } from '../../store/session.ts';
import { linkMatches } from '../../store/url.ts';

/**
 * A link made on another log (docs/open-and-navigate.md): names the log it was made for,
 * offers to open it (the link's view is applied once it is open) or to
 * dismiss the link and keep the open log as it is.
 */
export function LinkNotice() {
  const pending = useLink((s) => s.pending);
  const setPending = useLink((s) => s.setPending);
  const summary = useSession((s) => s.summary);
  const status = useSession((s) => s.status);
  const openMany = useSession((s) => s.openMany);
  const input = useRef<HTMLInputElement>(null);
  if (!pending || !summary || status === 'loading' || linkMatches(pending, summary)) return null;
  return (
    <div className="link-notice" role="alert" aria-label="Link for another log">
      <span>
        This link was made for the log <strong className="mono">{pending.log ?? 'another log'}</strong>
        {pending.fingerprint && <span className="muted mono" title="size and hash of the log's first 64 KiB"> ({pending.fingerprint})</span>}
        , but <strong className="mono">{summary.name}</strong> is open: its cursor, selection and tabs are not applied.
        Open that log and they will be.
      </span>
      <button onClick={() => input.current?.click()}>Open log…</button>
      <input ref={input} type="file" multiple hidden aria-label="Open the linked log" onChange={(e) => {
        const files = [...(e.target.files ?? [])];
        if (files.length) void openMany(files.map((f) => ({ kind: 'file' as const, file: f, name: f.name })));
        e.target.value = '';
      }} />
      <button onClick={() => setPending(null)}>Dismiss</button>
    </div>
  );
}
