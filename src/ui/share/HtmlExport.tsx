import { useState } from 'react';
import { shareableView } from '../../core/share/fragment.ts';
import { singleFileHtml } from '../../core/share/single-file.ts';
import { useSession } from '../../store/session.ts';
import { downloadText } from '../export.ts';
import { RedactionSummary } from './RedactionSummary.tsx';
import { appParts } from '../../store/single-file-page.ts';
import { kb, usePackedLog } from './usePackedLog.ts';
import { useNotes } from '../../store/notes.ts';
import { fragmentWithNotes, IncludeNotes } from './shared-notes.tsx';

/** The file name of a log's export: its name without the log extensions, `.html`. */
export function htmlFileName(logName: string): string {
  return `${logName.replace(/\.(jsonl|ndjson|json)?(\.(zstd|zst|gz))?$/i, '') || 'dsh-log'}.html`;
}

/**
 * Export → Self-contained HTML (docs/share-and-privacy.md): the app and this log (gzip,
 * base64) in one file that opens offline from file://, at this view and
 * cursor. Redacted by default, with the count shown before the download.
 */
export function HtmlExport({ startOpen = false }: { startOpen?: boolean }) {
  const summary = useSession((s) => s.summary);
  const [open, setOpen] = useState(startOpen);
  const [redact, setRedact] = useState(true);
  const [withNotes, setWithNotes] = useState(true);
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { packed, error } = usePackedLog(redact, open);
  if (!summary) return null;
  if (!open) return <button onClick={() => setOpen(true)}>Self-contained HTML…</button>;
  const download = async () => {
    if (!packed) return;
    try {
      const html = await singleFileHtml(await appParts(), { name: summary.name, gzip: packed.gzip, redacted: packed.redacted, redactions: packed.redactions, view: fragmentWithNotes(shareableView(location.hash), useNotes.getState().notes, withNotes, redact) });
      const name = htmlFileName(summary.name);
      downloadText(name, 'text/html', html);
      setDone(`${name}: ${kb(new Blob([html]).size)} (the app, and the log in ${kb(packed.gzip.length)})`);
      setFailure(null);
    } catch (err) {
      setFailure(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <section className="html-export" aria-label="Self-contained HTML">
      <h3>Self-contained HTML</h3>
      <p className="muted">The app and this log in one file: it opens offline from disk in Chromium or Firefox, at this cursor and view, and sends nothing anywhere.</p>
      <label className="redact"><input type="checkbox" checked={redact} onChange={(e) => setRedact(e.target.checked)} /><span>Redact obvious secrets in the log (API keys, bearer tokens, private keys)</span></label>
      <IncludeNotes include={withNotes} onChange={setWithNotes} />
      {error && <p role="alert">The log could not be packed: {error}</p>}
      {!packed && !error && <p className="muted" role="status">Packing the log…</p>}
      {packed && <RedactionSummary redacted={packed.redacted} count={packed.redactions} hits={packed.hits} />}
      {failure && <p role="alert">{failure}</p>}
      {done && <p className="muted" role="status">{done}</p>}
      <div className="dialog-actions"><button disabled={!packed} onClick={() => void download()}>Download HTML</button></div>
    </section>
  );
}
