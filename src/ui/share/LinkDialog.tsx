import { useState } from 'react';
import { logFragment } from '../../core/share/fragment.ts';
import { useSession } from '../../store/session.ts';
import { useShare } from '../../store/share.ts';
import { RedactionSummary } from './RedactionSummary.tsx';
import { isSingleFile } from '../../store/single-file-page.ts';
import { kb, usePackedLog } from './usePackedLog.ts';
import { useNotes } from '../../store/notes.ts';
import { fragmentWithNotes, IncludeNotes } from './shared-notes.tsx';

/** This page's address without the fragment and without a `?url=`/`vs=` the link's own log replaces. */
function pageBase(): string {
  const url = new URL(location.href);
  url.hash = '';
  url.searchParams.delete('url');
  url.searchParams.delete('vs');
  return url.toString();
}

/**
 * Copy link (docs/share-and-privacy.md): a small log travels inside the link's fragment
 * (gzip, base64url), after the same redaction preview as the HTML export;
 * a log over the limit gets a view-only link and the offer of the HTML export.
 */
export function LinkDialog({ onClose, onExportHtml }: { onClose: () => void; onExportHtml: () => void }) {
  const summary = useSession((s) => s.summary);
  const limit = useShare((s) => s.linkLimit);
  const setLimit = useShare((s) => s.setLinkLimit);
  const [redact, setRedact] = useState(true);
  const [withNotes, setWithNotes] = useState(true);
  const notes = useNotes((s) => s.notes);
  const view = fragmentWithNotes(location.hash, notes, withNotes, redact);
  const viewLink = `${location.href.split('#')[0]}${view ? `#${view}` : ''}`;
  const [copied, setCopied] = useState<string | null>(null);
  const { packed, error } = usePackedLog(redact);
  const fragment = packed && summary ? logFragment(view, { name: summary.name, gzip: packed.gzip, redacted: packed.redacted, redactions: packed.redactions }, limit) : null;
  const link = fragment?.ok ? `${pageBase()}#${fragment.fragment}` : null;
  const copy = (text: string, what: string) => {
    void navigator.clipboard?.writeText(text).then(() => setCopied(what), () => setCopied('not copied: the browser refused the clipboard; copy the link from the box'));
  };
  return (
    <div className="dialog share-dialog" role="dialog" aria-label="Copy link">
      <h3>Copy link</h3>
      {!summary ? (
        <>
          <p>No log is open: the link carries the view only.</p>
          <input readOnly aria-label="Link" value={location.href} onFocus={(e) => e.target.select()} />
        </>
      ) : (
        <>
          <label className="redact"><input type="checkbox" checked={redact} onChange={(e) => setRedact(e.target.checked)} /><span>Redact obvious secrets (API keys, bearer tokens, private keys)</span></label>
          <IncludeNotes include={withNotes} onChange={setWithNotes} />
          {error && <p role="alert">The log could not be packed: {error}</p>}
          {!packed && !error && <p className="muted" role="status">Packing the log…</p>}
          {packed && <RedactionSummary redacted={packed.redacted} count={packed.redactions} hits={packed.hits} />}
          {fragment?.ok && link && (
            <>
              <p>The link carries the log itself ({kb(packed!.gzip.length)} compressed, {link.length.toLocaleString()} characters). The part after <span className="mono">#</span> stays in the browser: it never reaches a server.</p>
              <input readOnly aria-label="Link with the log" value={link} onFocus={(e) => e.target.select()} />
              <div className="dialog-actions"><button onClick={() => copy(link, 'link with the log copied')}>Copy link with the log</button></div>
            </>
          )}
          {fragment && !fragment.ok && (
            <div role="alert" aria-label="Too big for a link">
              <p>This log needs {kb(fragment.length)} of link, over the limit of {kb(fragment.limit)}: <strong>the link carries the view only</strong> (cursor, tabs, filters), not the log — whoever opens it needs the log too.</p>
              <p>To share the log itself, export it as one self-contained HTML file.</p>
              <div className="dialog-actions">
                <button onClick={onExportHtml}>Export self-contained HTML…</button>
                <button onClick={() => copy(viewLink, 'view-only link copied')}>Copy view-only link</button>
              </div>
            </div>
          )}
          <label className="muted link-limit-row">Link limit <input className="link-limit" type="number" aria-label="Link limit in KB" min={1} step={1} value={Math.round(limit / 1024)} onChange={(e) => { const n = Number(e.target.value); if (Number.isFinite(n) && n >= 1) setLimit(Math.round(n) * 1024); }} /> KB</label>
          {isSingleFile() && <p className="muted">This page is a local file: a link to it opens only where the same file is.</p>}
        </>
      )}
      {copied && <p className="muted" role="status">{copied}</p>}
      <div className="dialog-actions"><button onClick={onClose}>Close</button></div>
    </div>
  );
}
