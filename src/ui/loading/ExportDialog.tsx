import { useState } from 'react';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import type { ExportResult, ExportWhat } from '../../worker/protocol.ts';
import { downloadText } from '../export.ts';
import { HtmlExport } from '../share/HtmlExport.tsx';

/** Export the request, the surface or the transcript at the cursor, the session as an OpenTelemetry trace, or the app and the log as one HTML file (`html`: that part opened); secrets redacted by default. */
export function ExportDialog({ onClose, html = false }: { onClose: () => void; html?: boolean }) {
  const client = useSession((s) => s.client);
  const index = useCursor((s) => s.index);
  const [what, setWhat] = useState<ExportWhat | 'otlp'>('transcript');
  const [content, setContent] = useState(false);
  const [format, setFormat] = useState<'json' | 'markdown'>('markdown');
  const [redact, setRedact] = useState(true);
  const [result, setResult] = useState<ExportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: 'download' | 'copy') => {
    if (!client) return;
    try {
      const r = what === 'otlp' ? await client.exportOtlp(content, redact) : await client.export(what, format, index, redact);
      setResult(r);
      setError(null);
      if (action === 'download') downloadText(r.fileName, r.mime, r.text);
      else await navigator.clipboard?.writeText(r.text);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <div className="dialog" role="dialog" aria-label="Export">
      <div className="export-grid">
        <label>What <select aria-label="Export what" value={what} onChange={(e) => setWhat(e.target.value as ExportWhat | 'otlp')}>
          <option value="transcript">transcript (what a human saw)</option>
          <option value="surface">surface (what the model sees)</option>
          <option value="request">request of the model call at the cursor</option>
          <option value="otlp">OpenTelemetry trace of the session (OTLP/JSON)</option>
        </select></label>
        {what === 'otlp'
          ? <label className="redact"><input type="checkbox" checked={content} onChange={(e) => setContent(e.target.checked)} /><span>With message content, tool arguments and results</span></label>
          : <label>Format <select aria-label="Export format" value={format} onChange={(e) => setFormat(e.target.value as 'json' | 'markdown')}>
            <option value="markdown">Markdown</option>
            <option value="json">JSON</option>
          </select></label>}
        <label className="redact"><input type="checkbox" checked={redact} onChange={(e) => setRedact(e.target.checked)} /><span>Redact obvious secrets (API keys, bearer tokens)</span></label>
      </div>
      {!redact && <p className="warn">Secrets in the log will be exported as they are.</p>}
      {what === 'otlp' && <p className="muted">One trace: a span per turn, model call and tool call (GenAI semantic conventions, with OpenInference names for Phoenix). Load the file into an OpenTelemetry collector, or send it with <code>dsh-devtools export-otlp --endpoint</code>.</p>}
      {result && <p className="muted">{result.fileName}: {result.redactions} secret{result.redactions === 1 ? '' : 's'} redacted</p>}
      {error && <p role="alert">{error}</p>}
      <div className="dialog-actions">
        <button onClick={() => void run('download')}>Download</button>
        <button onClick={() => void run('copy')}>Copy</button>
        <button onClick={onClose}>Close</button>
      </div>
      <HtmlExport startOpen={html} />
    </div>
  );
}
