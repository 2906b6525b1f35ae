import { useState } from 'react';
import { FAMILIES, type Family } from '../../core/replay/families.ts';
import { useFolder } from '../../store/folder.ts';

/** Search across the folder's sessions (the Events panel's search), results grouped by session; a hit opens its session at that seq. */
export function SearchResults() {
  const { search, files, status, searchAll, openSession, cancel } = useFolder();
  const [text, setText] = useState('');
  const [families, setFamilies] = useState<Family[]>([]);
  const toggle = (f: Family) => setFamilies((x) => (x.includes(f) ? x.filter((y) => y !== f) : [...x, f]));
  const run = () => { if (text.trim()) void searchAll({ text: text.trim(), families }); };
  const searched = search ? files.length : 0;
  return (
    <div className="folder-search">
      <div className="panel-toolbar">
        <input className="search" placeholder="Search all sessions (Enter)" aria-label="Search all sessions" value={text}
          onChange={(e) => setText(e.target.value)} onKeyDown={(e) => { if (e.key === 'Enter') run(); }} disabled={status === 'scanning'} />
        <button onClick={run} disabled={status === 'scanning' || !text.trim()}>Search</button>
        <span className="family-filters" aria-label="Families to search">
          {FAMILIES.map((f) => <label key={f}><input type="checkbox" checked={families.includes(f)} onChange={() => toggle(f)} />{f}</label>)}
        </span>
        {search && <span className="muted" role="status">
          {search.status === 'running' ? `searching… ${search.done} sessions` : `${search.results.reduce((n, r) => n + r.hits.length, 0)} matches in ${search.results.length} sessions${search.status === 'cancelled' ? ' (cancelled)' : ''}`}
        </span>}
        {search?.status === 'running' && <button onClick={cancel}>Cancel</button>}
      </div>
      {search && search.results.length > 0 && (
        <div className="scroll folder-search-results" aria-label="Search results" data-searched={searched}>
          {search.results.map((r) => (
            <div key={r.file} className="search-group">
              <div className="search-group-title"><strong>{files[r.file].rel}</strong> <span className="muted">{r.hits.length}{r.more ? '+' : ''} matches</span></div>
              {r.hits.map((h) => (
                <button key={h.seq} className="search-hit link" onClick={() => void openSession(r.file, h.seq, search.query.text)} title={`Open ${files[r.file].rel} at seq ${h.seq}`}>
                  <span className="mono">seq {h.seq}</span> <span className="muted">{h.type}</span> {h.preview}
                </button>
              ))}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
