import type { CompareAt } from '../../worker/compare-protocol.ts';
import { LineDiff } from '../prompt/LineDiff.tsx';
import { FriendlyView } from '../projections/FriendlyView.tsx';
import { failureLead } from '../projections/failure-lead.ts';

/** Every projection unit's value on both sides, with both watermarks and a value diff where they differ. */
export function ProjectionsCompare({ at }: { at: CompareAt | null }) {
  if (!at) return <p className="muted pad">Loading…</p>;
  const changed = at.projections.filter((u) => u.status !== 'same').length;
  return (
    <div className="projections-compare scroll" aria-label="Projections compared">
      <p className="muted pad">{at.projections.length} units · {changed} differ at A seq {at.a?.seq ?? '-'} / B seq {at.b?.seq ?? '-'}</p>
      {at.projections.map((u) => (
        <article key={u.key} className={`projection-card unit-${u.status}`} aria-label={`Projection ${u.key}: ${u.status}`}>
          <header>
            <strong>{u.key}</strong>
            <span className={`badge st-${u.status === 'same' ? 'unchanged' : u.status === 'changed' ? 'changed' : u.status === 'a-only' ? 'removed' : 'added'}`}>{u.status}</span>
            <span className="spacer" />
            <span className="mono watermark" title="observedSeq: the last event each side's unit observed">watermark A {u.a?.observedSeq ?? '-'} · B {u.b?.observedSeq ?? '-'}</span>
          </header>
          {(u.a?.failure || u.b?.failure) && <div className="diag error">{u.a?.failure && `A: ${failureLead(u.a.failure)} seq ${u.a.failure.seq}: ${u.a.failure.message}`} {u.b?.failure && `B: ${failureLead(u.b.failure)} seq ${u.b.failure.seq}: ${u.b.failure.message}`}</div>}
          {u.status === 'same'
            ? <div className="projection-body"><FriendlyView unit={u.key} view={u.a!.view} /></div>
            : (
              <>
                <div className="projection-body two">
                  <div><span className="muted">A</span>{u.a ? <FriendlyView unit={u.key} view={u.a.view} /> : <p className="muted">not in A</p>}</div>
                  <div><span className="muted">B</span>{u.b ? <FriendlyView unit={u.key} view={u.b.view} /> : <p className="muted">not in B</p>}</div>
                </div>
                {u.diff && <details><summary>value diff (A → B)</summary><LineDiff parts={u.diff} /></details>}
              </>
            )}
        </article>
      ))}
    </div>
  );
}
