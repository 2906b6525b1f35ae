import type { CompareAt } from '../../worker/compare-protocol.ts';
import { LineDiff } from '../prompt/LineDiff.tsx';

/** The runtime context in force on each side, section by section (A → B). */
export function ContextCompare({ at }: { at: CompareAt | null }) {
  if (!at) return <p className="muted pad">Loading…</p>;
  const { aSeq, bSeq, diff } = at.context;
  return (
    <div className="context-compare scroll" aria-label="Runtime context compared">
      <p className="muted pad">
        Snapshot in force: A {aSeq === null ? 'none' : `seq ${aSeq}`} · B {bSeq === null ? 'none' : `seq ${bSeq}`}
        {diff?.identical && ' · identical sections'}{diff?.reordered && ' · sections reordered'}
      </p>
      {!diff && <p className="muted pad">Neither side has a runtime-context snapshot at its cursor.</p>}
      {diff?.sections.map((s) => (
        <div key={s.name} className={`section-diff ${s.status} pad`}>
          <div className="section-name"><span className={`badge st-${s.status}`}>{s.status === 'added' ? 'only B' : s.status === 'removed' ? 'only A' : s.status}</span> {s.name}</div>
          {s.status === 'changed' && s.lines ? <LineDiff parts={s.lines} />
            : s.status === 'changed' ? <><pre className="diff-removed">{s.before}</pre><pre className="diff-added">{s.after}</pre></>
            : s.status === 'unchanged' ? <details><summary className="muted">same text on both sides</summary><pre>{s.after}</pre></details>
            : <pre className={s.status === 'added' ? 'diff-added' : 'diff-removed'}>{s.status === 'added' ? s.after : s.before}</pre>}
        </div>
      ))}
    </div>
  );
}
