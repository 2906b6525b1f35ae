import { useMemo, useState } from 'react';
import { divergenceText, KIND_TEXT } from '../../core/compare/report.ts';
import type { PairExplanation } from '../../core/compare/explain.ts';
import { valueText } from '../../core/compare/explain.ts';
import { useCompare } from '../../store/compare.ts';
import { useSession } from '../../store/session.ts';
import { LineDiff } from '../prompt/LineDiff.tsx';
import { MessageView } from '../message/MessageView.tsx';
import { useCompareQuery } from './useCompareQuery.ts';
import { callLabel } from './labels.ts';

const LIST_MAX = 500;

/** What differs in the aligned pair at the shared cursor, part by part, then every difference to step to. */
export function DifferencePanel() {
  const view = useCompare((s) => s.view);
  const row = useCompare((s) => s.row);
  const b = useCompare((s) => s.b);
  const a = useSession((s) => s.summary);
  const r = view?.report.rows[row];
  const differs = r?.status === 'differs';
  const explained = useCompareQuery((c) => (differs ? c['compare-explain'](row) : null), [row, differs]);
  if (!view || !r) return <p className="muted pad">Nothing aligned: neither run has a model call.</p>;
  const d = view.report.divergences.find((x) => x.row === row);
  return (
    <div className="difference-panel scroll" aria-label="Difference">
      <h3>Row {row + 1}: A {callLabel(r.a, a?.requests) || '—'} · B {callLabel(r.b, b?.requests) || '—'}</h3>
      {r.status === 'same' && <p>The two requests are identical: config, system prompt, tools and every message{r.inherited ? ' (an inherited call, from before the fork cut)' : ''}.</p>}
      {r.status !== 'same' && r.status !== 'differs' && <GapText side={r.status === 'a-only' ? 'a' : 'b'} />}
      {d && <p className="divergence-sentence">{divergenceText(d)}</p>}
      {differs && (explained?.row === row && explained.explanation ? <Explanation e={explained.explanation} /> : <p className="muted">Explaining…</p>)}
      <DifferenceList />
    </div>
  );
}

function Explanation({ e }: { e: PairExplanation }) {
  const [lines, setLines] = useState(false);
  return (
    <>
      {e.config.length > 0 && (
        <section aria-label="Config difference">
          <h4>{KIND_TEXT.config}</h4>
          <table className="grid-table"><thead><tr><th>field</th><th>A</th><th>B</th></tr></thead>
            <tbody>{e.config.map((c) => <tr key={c.key}><td className="mono">{c.key}</td><td className="mono">{valueText(c.a)}</td><td className="mono">{valueText(c.b)}</td></tr>)}</tbody>
          </table>
        </section>
      )}
      {e.system && (
        <section aria-label="System prompt difference">
          <h4>{KIND_TEXT.system}</h4>
          {e.system.a === null || e.system.b === null
            ? <p className="muted">{e.system.a === null ? 'A' : 'B'} sent no system prompt text (none yet, or opaque content).</p>
            : <>
              <label><input type="checkbox" checked={lines} onChange={(ev) => setLines(ev.target.checked)} /> line diff (else by section)</label>
              {lines ? (e.system.lines ? <LineDiff parts={e.system.lines} /> : <p className="muted">Too many edits to diff line by line.</p>)
                : e.system.sections ? <SectionParts parts={e.system.sections} /> : <p className="muted">Too many edits to diff by section.</p>}
            </>}
        </section>
      )}
      {e.tools && (
        <section aria-label="Tools difference">
          <h4>{KIND_TEXT.tools}</h4>
          {e.tools.scrubbed && <p className="muted">A fixture scrubbed the tool list on one side: names cannot be compared.</p>}
          <ul className="tool-changes">
            {e.tools.added.map((n) => <li key={`+${n}`} className="diff-added">added in B: <span className="mono">{n}</span></li>)}
            {e.tools.removed.map((n) => <li key={`-${n}`} className="diff-removed">removed in B: <span className="mono">{n}</span></li>)}
            {e.tools.changed.map((n) => <li key={`~${n}`}>schema changed: <span className="mono">{n}</span></li>)}
          </ul>
        </section>
      )}
      {e.messages && (
        <section aria-label="Messages difference">
          <h4>{KIND_TEXT.messages}</h4>
          <p>Message {e.messages.index} (0-based) is the first that differs{e.messages.index ? `; the ${e.messages.index} before it are the same` : ': no message before it is shared'}. A sends {e.messages.countA} messages, B {e.messages.countB}.</p>
          <p className="muted">
            A: {e.messages.a ? `${e.messages.a.role} message` : 'no message here (its list ends)'} · B: {e.messages.b ? `${e.messages.b.role} message` : 'no message here (its list ends)'}
            {e.messages.metadataOnly && ' · the texts are equal; the fields that differ are shown as JSON'}
          </p>
          {e.messages.lines ? <LineDiff parts={e.messages.lines} /> : (e.messages.a ?? e.messages.b) && <pre className="line-diff">{(e.messages.a ?? e.messages.b)!.text}</pre>}
          <div className="message-pair" aria-label="The two messages">
            {(['a', 'b'] as const).map((side) => {
              const m = e.messages![side];
              return m ? <MessageView key={side} message={m.message} title={<span className="badge">{side.toUpperCase()}</span>} />
                : <p key={side} className="muted">{side.toUpperCase()}: no message at {e.messages!.index}</p>;
            })}
          </div>
        </section>
      )}
    </>
  );
}

/** A call only one run made: a gap, or the other side has no calls at all (not a log). */
function GapText({ side }: { side: 'a' | 'b' }) {
  const view = useCompare((s) => s.view);
  const [me, other] = side === 'a' ? ['A', 'B'] : ['B', 'A'];
  const unreadable = view?.report.notes.some((n) => n.kind === 'not-dsh' && n.side === (side === 'a' ? 'b' : 'a'));
  return unreadable
    ? <p>Only {me} has model calls: {other} is not a DSH session log, so nothing of it can be aligned (see the note above).</p>
    : <p>Only {me} made this call: {other} has no call at this point (a gap, not a shifted mismatch).</p>;
}

/** Sections of a prompt, unchanged ones folded to their first line. */
function SectionParts({ parts }: { parts: { kind: 'same' | 'added' | 'removed'; text: string }[] }) {
  return (
    <div className="section-parts">
      {parts.map((p, i) => (
        <pre key={i} className={p.kind === 'same' ? 'section-same' : `diff-${p.kind}`}>
          {p.kind === 'added' ? '+ ' : p.kind === 'removed' ? '- ' : ''}{p.kind === 'same' ? p.text.split('\n')[0].slice(0, 160) + (p.text.includes('\n') || p.text.length > 160 ? ' …' : '') : p.text}
        </pre>
      ))}
    </div>
  );
}

/** Every divergence and gap in row order, each a jump for the shared cursor. */
function DifferenceList() {
  const view = useCompare((s) => s.view);
  const row = useCompare((s) => s.row);
  const seekRow = useCompare((s) => s.seekRow);
  const items = useMemo(() => {
    if (!view) return [];
    const { divergences, gaps } = view.report;
    return [
      ...divergences.map((d) => ({ row: d.row, text: divergenceText(d) })),
      ...gaps.map((g) => ({ row: g.row, text: `call ${g.call} of ${g.side.toUpperCase()} (turn ${g.turn} step ${g.step}, attempt ${g.attempt}, seq ${g.seq}) has no counterpart` })),
    ].sort((x, y) => x.row - y.row);
  }, [view]);
  if (!items.length) return null;
  return (
    <section aria-label="Every difference">
      <h4>Every difference ({items.length})</h4>
      <ol className="difference-list">
        {items.slice(0, LIST_MAX).map((it) => (
          <li key={it.row} className={it.row === row ? 'current' : ''}><button className="link" onClick={() => seekRow(it.row)}>row {it.row + 1}</button> {it.text}</li>
        ))}
      </ol>
      {items.length > LIST_MAX && <p className="muted">… {items.length - LIST_MAX} more: step with “difference ›” (e), or use <span className="mono">dsh-devtools diff A B --json</span>.</p>}
    </section>
  );
}
