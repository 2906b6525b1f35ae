import { useCallback, useState } from 'react';
import { useDeferredCursor } from '../hooks/useDeferredCursor.ts';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { useWorkerQuery } from '../hooks/useWorkerQuery.ts';
import { LineDiff } from './LineDiff.tsx';
import { AdmissionBox } from './AdmissionBox.tsx';
import { PromptText } from './PromptText.tsx';
import { SnapshotTable } from './SnapshotTable.tsx';
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

  // Stable across cursor steps, so the snapshot list redraws only when its rows or the shown one change.
  const jump = useCallback((seq: number) => { if (summary) seek(indexOfSeq(summary.columns.seq, seq)); }, [summary, seek]);
  const pickSide = useCallback((side: 'a' | 'b', seq: number) => setPick((p) => ({ ...p, [side]: seq })), []);
  if (!summary || !prompt) return null;
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
      <SnapshotTable snapshots={summary.contextSnapshots} shownSeq={bSeq} onJump={jump} onPick={pickSide} />
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
