import { useVirtualizer } from '@tanstack/react-virtual';
import { useDeferredCursor } from '../hooks/useDeferredCursor.ts';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { sameFields } from '../same-fields.ts';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { useView } from '../../store/view.ts';
import type { CursorState, ListWindow, SurfaceNodeView, SurfaceSpan } from '../../worker/protocol.ts';
import { useWorkerQuery } from '../hooks/useWorkerQuery.ts';
import { useKeepInView } from '../hooks/useKeepInView.ts';
import { useListWindow } from '../hooks/useListWindow.ts';
import { GenerationsChart } from './GenerationsChart.tsx';
import { formatCount } from '../counts.ts';
import { callAtOrBefore, SeenByCall } from '../requests/next-call.tsx';
import { hasWord, Marked, useSearchWords } from '../search/Marked.tsx';
import { useFollow } from '../follow/follow-store.ts';
import { useWhatIf } from '../../store/whatif.ts';

/** A node row's height: `.node` in theme.css sets it, so rows measure as estimated. */
const ROW_H = 24;
/** Rows fetched beyond the visible ones, so a short scroll shows nodes at once. */
const OVERSCAN = 12;

/**
 * The surface at the cursor: the nodes the model sees, in order. Each
 * replace span is drawn as a bracket from the replacing node over the nodes
 * it shadowed, which stay available (ghosted) on demand. The transcript mode
 * shows what a human saw instead: every appended message in log order.
 * The list is virtual: a long session has tens of thousands of nodes, and
 * only the rows in view are asked of the worker and drawn.
 */
export function SurfacePanel() {
  const index = useDeferredCursor();
  const mode = useView((s) => s.surfaceMode);
  const setMode = useView((s) => s.setSurfaceMode);
  const summary = useSession((s) => s.summary);
  const [window, setWindow] = useState<ListWindow>({ from: 0, count: 80 });
  const transcript = mode === 'transcript';
  const state = useWorkerQuery(
    (client) => client.state({ index, window: transcript ? { from: 0, count: 0 } : window, transcript: transcript ? window : null }),
    [index, window.from, window.count, transcript],
  );
  // A new log starts at the top.
  useEffect(() => setWindow({ from: 0, count: 80 }), [summary]);
  // Following a live log at its last event: its newest node stays in view, as `tail -f` shows a file.
  const atLiveTail = useFollow((s) => s.status === 'on') && summary !== null && index === summary.count - 1;
  // At a model call's cut, the messages that call added since the previous one are marked.
  const callCuts = summary?.callCuts;
  const atCall = callCuts ? callAtOrBefore(callCuts, index) : -1;
  const cutCall = callCuts && atCall >= 0 && callCuts[atCall] === index && !transcript ? atCall : -1;
  const callDiff = useWorkerQuery((client) => (cutCall < 0 ? null : client.request(cutCall, { from: 0, count: 0 })), [cutCall]);
  const added = useMemo(() => (callDiff && callDiff.request.index === cutCall && callDiff.messageDiff ? new Set(callDiff.messageDiff.added) : null), [callDiff, cutCall]);
  const head = (
    <div className="panel-head">
      <h2>Surface</h2>
      <div className="segmented" role="radiogroup" aria-label="View">
        <button role="radio" aria-checked={mode === 'surface'} className={mode === 'surface' ? 'active' : ''} onClick={() => setMode('surface')}>model's view</button>
        <button role="radio" aria-checked={transcript} className={transcript ? 'active' : ''} onClick={() => setMode('transcript')}>transcript</button>
      </div>
    </div>
  );
  if (summary?.partial) return <section className="panel surface-panel" aria-label="Surface">{head}<p className="muted pad">Reading the log: the surface at the cursor appears once all of it is read.</p></section>;
  if (!state) return <section className="panel surface-panel" aria-label="Surface">{head}</section>;
  return (
    <section className="panel surface-panel" aria-label="Surface">
      {head}
      <div className="gens mono pad" aria-label="Generations">
        {formatCount(state.nodeCount)} nodes · ~{formatCount(state.tokens)} tokens · {formatCount(state.messageCount)} messages · replaceGeneration {state.replaceGeneration} · contentGeneration {state.contentGeneration}
      </div>
      <GenerationsChart />
      <div className="cursor-change">
        at seq {state.seq}: {state.change === 'none' ? 'no surface change' : state.change}
        {state.change !== 'none' && state.change !== 'reject' && <> · <SeenByCall index={state.index} what={`the ${state.change} at seq ${state.seq}`} /></>}
        {added && cutCall >= 0 && <span className="cut-note"> · call {cutCall + 1} is cut here: the {added.size} message{added.size === 1 ? '' : 's'} it added since call {cutCall} {added.size === 1 ? 'is' : 'are'} marked</span>}
      </div>
      <NodeList key={transcript ? 'transcript' : 'surface'} state={state} transcript={transcript} asked={window} onWindow={setWindow} added={added} newestInView={atLiveTail} />
    </section>
  );
}

/** The virtual list of nodes (or transcript rows); reports the rows in view so the panel asks for those. */
function NodeList({ state, transcript, asked, onWindow, added, newestInView }: { state: CursorState; transcript: boolean; asked: ListWindow; onWindow: (w: ListWindow) => void; added: ReadonlySet<string> | null; newestInView: boolean }) {
  const scroller = useRef<HTMLDivElement>(null);
  const count = transcript ? state.transcriptCount : state.nodeCount;
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_H,
    overscan: OVERSCAN,
    initialRect: { width: 600, height: 600 },
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  useListWindow(virtualizer, OVERSCAN, onWindow, asked);
  // Keep the cursor's node in view when the cursor lands on one; at a followed log's tail, the newest.
  const cursorNode = transcript ? -1 : state.cursorNode >= 0 || !newestInView ? state.cursorNode : count - 1;
  useKeepInView(virtualizer, cursorNode, count);
  const rows = transcript ? state.transcript : state.nodes;
  const offset = transcript ? state.transcriptFrom : state.nodesFrom;
  const spans = new Map(state.spans.map((s) => [s.seq, s]));
  return (
    <div ref={scroller} className="scroll nodes" role="list" aria-label={transcript ? 'Transcript' : 'Surface nodes'}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((v) => {
          const n = rows[v.index - offset];
          const style = { position: 'absolute' as const, top: 0, left: 0, right: 0, transform: `translateY(${v.start}px)` };
          if (!n) return <div key={v.key} className="node pending" style={{ ...style, height: ROW_H }} aria-hidden="true">…</div>;
          const t = n as (typeof state.transcript)[number];
          const note = transcript ? (t.status === 'shadowed' ? `shadowed by ${t.shadowedBy}` : t.status === 'not-a-node' ? 'rejected' : undefined) : undefined;
          const span = transcript ? undefined : spans.get(n.seq);
          return (
            <div key={v.key} data-index={v.index} ref={virtualizer.measureElement} style={style} role="presentation">
              {span ? <Span span={span} node={n} cursorSeq={state.seq} cursorIndex={state.index} added={added} /> : <NodeRow n={n} ghost={false} note={note} atCursor={n.seq === state.seq} isNew={isAdded(n, added)} />}
            </div>
          );
        })}
      </div>
    </div>
  );
}

/** Whether a live node's message is one the call at the cursor added. */
const isAdded = (n: SurfaceNodeView, added: ReadonlySet<string> | null): boolean => n.messageId !== null && added?.has(n.messageId) === true;

interface NodeRowProps {
  n: SurfaceNodeView;
  ghost: boolean;
  note?: string;
  atCursor: boolean;
  isNew: boolean;
}

/**
 * One node. The worker sends new node objects with every cursor state, so the
 * row compares their fields: a step re-renders only the rows it changed.
 */
const NodeRow = memo(function NodeRow({ n, ghost, note, atCursor, isNew }: NodeRowProps) {
  const seek = useCursor((s) => s.seek);
  const select = useCursor((s) => s.select);
  const words = useSearchWords();
  return (
    <div role="listitem" className={`node role-${n.role ?? 'none'}${ghost ? ' ghost' : ''}${atCursor ? ' at-cursor' : ''}${isNew ? ' call-added' : ''}${hasWord(n.preview, words) ? ' search-match' : ''}`}
      onClick={() => select(n.index)} onDoubleClick={() => seek(n.index)} aria-label={`seq ${n.seq} ${n.role ?? 'no message'}${ghost ? ', shadowed' : ''}`}
      title={ghost ? 'shadowed: no longer sent to the model' : n.messageId ? `message ${n.messageId}` : 'no wire message (empty content)'}>
      <span className="seq mono">{n.seq}</span>
      <span className="role">{n.role ?? '∅'}</span>
      <span className="tokens mono" title="estimated tokens (DSH token meter)">{n.tokens ? `~${n.tokens}` : ''}</span>
      <span className="preview">{isNew && <span className="badge added-badge" title="added to the model's context since the previous call">new</span>} {n.projected && <span className="badge" title="content rewritten by a message projection">projected</span>} {note && <span className="badge">{note}</span>} <Marked text={n.preview} words={words} /></span>
    </div>
  );
}, sameNodeRow);

function sameNodeRow(a: NodeRowProps, b: NodeRowProps): boolean {
  return a.ghost === b.ghost && a.note === b.note && a.atCursor === b.atCursor && a.isNew === b.isNew && sameFields(a.n, b.n);
}

/** A replacing node with the bracket over what it shadowed; few shadowed nodes show at once, more on demand. */
function Span({ span, node, cursorSeq, cursorIndex, added }: { span: SurfaceSpan; node: SurfaceNodeView; cursorSeq: number; cursorIndex: number; added: ReadonlySet<string> | null }) {
  const seek = useCursor((s) => s.seek);
  const client = useSession((s) => s.client);
  const addEdit = useWhatIf((s) => s.add);
  const [opened, setOpened] = useState<SurfaceNodeView[] | null>(null);
  const small = span.shadowedCount <= 3;
  const shadowed = small ? span.shadowed : opened;
  const toggle = () => {
    if (opened) setOpened(null);
    else void client?.span(cursorIndex, span.seq).then(setOpened);
  };
  return (
    <div role="listitem" className="replace-span" aria-label={`Replace span: seq ${span.seq} shadows ${span.shadowedCount > 20 ? `${span.shadowedSeqs.slice(0, 20).join(', ')} … (${span.shadowedCount} nodes)` : span.shadowedSeqs.join(', ')}`}>
      <div className="span-label">
        <button className="link" onClick={() => seek(node.index)}>seq {span.seq}</button> replaced {span.shadowedCount} node{span.shadowedCount > 1 ? 's' : ''} ({span.start}…{span.end}){' '}
        {!small && <button className="link" aria-expanded={opened !== null} onClick={toggle}>{opened ? 'hide shadowed' : 'show shadowed'}</button>}{' '}
        <button className="link" onClick={() => addEdit({ kind: 'undo-replace', seq: span.seq })} title="What if: add an edit that re-folds the log without this replace (the What-if bar lists it)">what if undone?</button>
      </div>
      <div role="list" className="span-nodes">
        {shadowed?.map((g) => <NodeRow key={`g${g.seq}`} n={g} ghost atCursor={g.seq === cursorSeq} isNew={false} />)}
        <NodeRow n={node} ghost={false} atCursor={node.seq === cursorSeq} isNew={isAdded(node, added)} />
      </div>
    </div>
  );
}
