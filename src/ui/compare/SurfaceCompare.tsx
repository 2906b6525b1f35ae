import type { CompareAt, CompareNodeView } from '../../worker/compare-protocol.ts';

const MATCH_TEXT = { same: '=', changed: '≠', 'a-only': 'only A', 'b-only': 'only B' } as const;

function Cell({ side, n }: { side: 'a' | 'b'; n: CompareNodeView | null }) {
  if (!n) return <td className={`node-cell empty side-${side}`} />;
  return (
    <td className={`node-cell side-${side} role-${n.role ?? 'none'}`} data-side={side} data-seq={n.seq} title={n.messageId ? `message ${n.messageId}` : 'no wire message'}>
      <span className="seq mono">{n.seq}</span> <span className="role">{n.role ?? '∅'}</span>{n.projected && <span className="badge">projected</span>} <span className="preview">{n.preview}</span>
    </td>
  );
}

/** Both surfaces at their cursors, nodes paired by message identity; a node with no partner is marked. */
export function SurfaceCompare({ at }: { at: CompareAt | null }) {
  if (!at) return <p className="muted pad">Loading…</p>;
  const same = at.surface.filter((p) => p.match === 'same').length;
  return (
    <div className="surface-compare scroll" aria-label="Paired surfaces">
      <p className="muted pad">
        A: {at.a ? `${at.a.nodes.length} nodes, ${at.a.messageCount} messages at seq ${at.a.seq}` : 'no log'} · B: {at.b ? `${at.b.nodes.length} nodes, ${at.b.messageCount} messages at seq ${at.b.seq}` : 'no log'} · {same} paired as the same message
      </p>
      <table className="grid-table paired-nodes">
        <thead><tr><th>A</th><th /><th>B</th></tr></thead>
        <tbody>
          {at.surface.map((p, i) => (
            <tr key={i} className={`pair-${p.match}`} aria-label={`${p.a === null ? '' : `A seq ${at.a!.nodes[p.a].seq}`}${p.a !== null && p.b !== null ? ' and ' : ''}${p.b === null ? '' : `B seq ${at.b!.nodes[p.b].seq}`}: ${p.match}`}>
              <Cell side="a" n={p.a === null ? null : at.a!.nodes[p.a]} />
              <td className="match" title={p.match}>{MATCH_TEXT[p.match]}</td>
              <Cell side="b" n={p.b === null ? null : at.b!.nodes[p.b]} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
