import { useState } from 'react';
import { useDeferredCursor } from '../hooks/useDeferredCursor.ts';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { useWorkerQuery } from '../hooks/useWorkerQuery.ts';
import { LineDiff } from './LineDiff.tsx';
import { AdmissionBox } from './AdmissionBox.tsx';
import { PromptText } from './PromptText.tsx';
import { indexOfSeq } from '../../core/replay/seq-index.ts';

/** The effective system prompt at the cursor, and the runtime-context snapshots with diffs. */
export function PromptPanel() {
  const summary = useSession((s) => s.summary);
  const index = useDeferredCursor();
  const seek = useCursor((s) => s.seek);
  const [pick, setPick] = useState<{ a: number | null; b: number | null }>({ a: null, b: null });
  const [showDiff, setShowDiff] = useState(false);
  const prompt = useWorkerQuery((client) => client.prompt(index), [index]);
  // The snapshot to show: the user's pick, else the one in force at the cursor.
  const bSeq = pick.b ?? prompt?.contextSeq ?? null;
  const comparison = useWorkerQuery((client) => (bSeq === null ? null : client.context(pick.a, bSeq)), [pick.a, bSeq]);

  if (!summary || !prompt) return null;
  const jump = (seq: number) => seek(indexOfSeq(summary.columns.seq, seq));
  return (
    <div className="prompt-panel scroll">
      <section aria-label="System prompt">
      <h3>Effective system prompt</h3>
      <div className="muted">
        {prompt.source === 'header' ? 'from request/header (format 0)' : 'from system/message surface nodes'}
        {prompt.setBySeq !== null && <> · set by <button className="link" onClick={() => jump(prompt.setBySeq!)}>seq {prompt.setBySeq}</button> ({prompt.setBy})</>}
        {prompt.changedAt && <span className="badge changed-badge">changed at this event</span>}
        {prompt.scrubbed && <span className="badge" title="The snapshot tooling replaced the prompt with a placeholder">scrubbed in this log</span>}
      </div>
      {prompt.text === null ? <p className="muted">No system prompt sent yet at this point.</p>
        : prompt.text === undefined ? <p className="muted">Opaque system content (not plain text).</p>
        : prompt.text === '' ? <p className="muted">Empty system prompt.</p>
        : <PromptText text={prompt.text} />}
      {prompt.diff && (
        <>
          <label><input type="checkbox" checked={showDiff} onChange={(e) => setShowDiff(e.target.checked)} /> diff against the previous effective prompt</label>
          {showDiff && <LineDiff parts={prompt.diff} />}
        </>
      )}

      {prompt.source === 'system-message' && <AdmissionBox />}
      </section>
      <section aria-label="Runtime context">
      <h3>Runtime-context snapshots ({summary.contextSnapshots.length})</h3>
      <table className="grid-table">
        <thead><tr><th>seq</th><th>turn.step</th><th>sections</th><th>surface</th><th>compare</th></tr></thead>
        <tbody>
          {summary.contextSnapshots.map((c) => (
            <tr key={c.seq} className={c.seq === bSeq ? 'selected' : ''}>
              <td><button className="link" onClick={() => jump(c.seq)}>{c.seq}</button></td>
              <td className="mono">{c.turn ?? '-'}.{c.step ?? '-'}</td>
              <td>{c.cleared ? <em>CLEARED</em> : c.names.join(', ')}{c.reemittedAfterShadowing ? ' · re-emitted after compaction' : ''}{c.unchanged ? ' · unchanged' : ''}</td>
              <td>{c.onSurface ? 'on' : c.shadowedBy !== null ? `shadowed by ${c.shadowedBy}` : 'off'}</td>
              <td>
                <button className="link" onClick={() => setPick({ a: pick.a, b: c.seq })} aria-label={`Show snapshot ${c.seq}`}>B</button>{' '}
                <button className="link" onClick={() => setPick({ a: c.seq, b: pick.b })} aria-label={`Compare from snapshot ${c.seq}`}>A</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {(pick.a !== null || pick.b !== null) && <button onClick={() => setPick({ a: null, b: null })}>Back to the snapshot at the cursor</button>}
      {comparison && (
        <div className="context-diff" aria-label="Runtime-context diff">
          <h4>
            Snapshot seq {comparison.b.seq} {comparison.a ? `vs seq ${comparison.a.seq}` : '(first snapshot)'}
            {comparison.diff.identical && ' · identical'}{comparison.diff.reordered && ' · sections reordered'}{comparison.diff.cleared && ' · cleared'}
          </h4>
          {comparison.diff.sections.map((s) => (
            <div key={s.name} className={`section-diff ${s.status}`}>
              <div className="section-name"><span className={`badge st-${s.status}`}>{s.status}</span> {s.name}</div>
              {s.status === 'changed' && s.lines ? <LineDiff parts={s.lines} />
                : s.status === 'changed' ? <><pre className="diff-removed">{s.before}</pre><pre className="diff-added">{s.after}</pre></>
                : s.status === 'unchanged' ? null
                : <pre className={s.status === 'added' ? 'diff-added' : 'diff-removed'}>{s.status === 'added' ? s.after : s.before}</pre>}
            </div>
          ))}
        </div>
      )}
      </section>
    </div>
  );
}
