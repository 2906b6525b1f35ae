import { useRef, useState } from 'react';
import { useSession } from '../../store/session.ts';
import { useView } from '../../store/view.ts';
import { clearRecent, recentLogs } from '../../store/recent.ts';
import { SessionSwitcher } from '../workspace/SessionSwitcher.tsx';
import { ExportDialog } from './ExportDialog.tsx';
import { VERDICT_TEXT } from '../diagnostics/verdict-text.ts';
import { useCompare } from '../../store/compare.ts';
import { CompareDialog } from '../compare/CompareDialog.tsx';
import { openLogs } from '../../store/open-logs.ts';
import { eventCountText } from '../counts.ts';
import { FolderButtons } from '../folder/FolderButtons.tsx';
import { FollowControl } from '../follow/FollowControl.tsx';
import { openWithPicker } from '../follow/handles.ts';
import { LinkDialog } from '../share/LinkDialog.tsx';

/** Open (file, paste, URL), the demo note, theme and link actions. */
export function Toolbar() {
  const open = useSession((s) => s.open);
  const comparing = useCompare((s) => s.status !== 'off');
  const exitCompare = useCompare((s) => s.exit);
  const summary = useSession((s) => s.summary);
  const demo = useSession((s) => s.demo);
  const theme = useView((s) => s.theme);
  const setTheme = useView((s) => s.setTheme);
  const fileInput = useRef<HTMLInputElement>(null);
  const dialog = useView((s) => s.dialog);
  const setDialog = useView((s) => s.setDialog);
  const [text, setText] = useState('');

  const submit = () => {
    if (dialog === 'paste' && text.trim()) void open({ kind: 'text', text, name: 'pasted log' });
    if (dialog === 'url' && text.trim()) {
      const url = text.trim();
      const params = new URLSearchParams(location.search);
      params.set('url', url);
      history.replaceState(null, '', `${location.pathname}?${params}${location.hash}`);
      void open({ kind: 'url', url, name: url.split('/').pop() || url });
    }
    setDialog(null);
    setText('');
  };

  return (
    <header className="toolbar">
      <strong className="brand">DSH Devtools</strong>
      <button onClick={() => void openWithPicker(() => fileInput.current?.click())} title="Open a .jsonl, .zst or .gz session log (or drop it anywhere)">Open log</button>
      <input ref={fileInput} type="file" multiple hidden aria-label="Open log" onChange={(e) => { const files = [...(e.target.files ?? [])]; if (files.length) void openLogs(files.map((f) => ({ kind: 'file' as const, file: f, name: f.name }))); e.target.value = ''; }} />
      <button onClick={() => setDialog('paste')}>Paste</button>
      <button onClick={() => setDialog('url')}>Open URL</button>
      <button onClick={() => setDialog('recent')}>Recent</button>
      <FolderButtons />
      {summary && !summary.partial && <button onClick={() => setDialog('export')}>Export</button>}
      {summary && !summary.partial && (comparing
        ? <button onClick={exitCompare}>Exit compare</button>
        : <button onClick={() => setDialog('compare')} title="Compare this log with another run: aligned call by call, first divergence explained">Compare with…</button>)}
      <SessionSwitcher />
      <FollowControl />
      {summary?.partial && <span className="loading-name">{summary.name} · {summary.count.toLocaleString()} events read so far…</span>}
      {summary && !summary.partial && (
        <span className="session-name" title={summary.header?.id ?? ''}>
          {summary.name} · v{summary.version} · <span title="Events in the file, and the ones DSH appends when it restores the log (interrupted-turn closers, the end-seed marker)">{eventCountText(summary.count, summary.syntheticCount)}</span>
          {VERDICT_TEXT[summary.verdict.kind].badge && (
            <span className={`badge ${VERDICT_TEXT[summary.verdict.kind].tone} verdict-badge`} data-verdict={summary.verdict.kind} title={summary.verdict.summary}>
              {VERDICT_TEXT[summary.verdict.kind].badge}
            </span>
          )}
        </span>
      )}
      {demo && <span className="demo-note" role="note">Demo log made by our generator — drop your own DSH session log anywhere, or use Open log. Nothing leaves your browser.</span>}
      <span className="spacer" />
      <button onClick={() => setDialog('link')} title="Copy a link to this view (cursor, tabs, filters); a small log can travel inside it">Copy link</button>
      <select aria-label="Theme" value={theme} onChange={(e) => setTheme(e.target.value as typeof theme)}>
        <option value="system">System theme</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
      {(dialog === 'export' || dialog === 'export-html') && <ExportDialog html={dialog === 'export-html'} onClose={() => setDialog(null)} />}
      {dialog === 'compare' && <CompareDialog onClose={() => setDialog(null)} />}
      {dialog === 'link' && <LinkDialog onClose={() => setDialog(null)} onExportHtml={() => setDialog('export-html')} />}
      {dialog && dialog !== 'export' && dialog !== 'export-html' && dialog !== 'compare' && dialog !== 'link' && (
        <div className="dialog" role="dialog" aria-label={dialog === 'paste' ? 'Paste log text' : dialog === 'url' ? 'Open from URL' : 'Recent logs'}>
          {dialog === 'recent' ? (
            <>
              <p>Recently opened (names only; the logs themselves are not stored):</p>
              <ul>{recentLogs().map((n) => <li key={n}>{n}</li>)}</ul>
              <button onClick={() => { clearRecent(); setDialog(null); }}>Clear list</button>
              <button onClick={() => setDialog(null)}>Close</button>
            </>
          ) : (
            <>
              {dialog === 'paste'
                ? <textarea aria-label="Log text" autoFocus rows={10} value={text} onChange={(e) => setText(e.target.value)} placeholder="Paste JSONL log text here" />
                : <input aria-label="Log URL" autoFocus value={text} onChange={(e) => setText(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && submit()} placeholder="https://…/session.jsonl (fetched by your browser only)" />}
              <div className="dialog-actions">
                <button onClick={submit}>Open</button>
                <button onClick={() => { setDialog(null); setText(''); }}>Cancel</button>
              </div>
            </>
          )}
        </div>
      )}
    </header>
  );
}

