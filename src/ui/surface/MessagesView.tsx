import type { CursorState } from '../../worker/protocol.ts';
import { JsonView } from '../json/JsonView.tsx';
import { downloadJson } from '../export.ts';
import { sourceLabel } from '../../core/messages/source-kinds.ts';
import { ANALYSES } from '../../core/diagnostics/verdict.ts';
import { PartialNote } from '../diagnostics/PartialNote.tsx';

/** The model-context view at the cursor: deriveMessages() exactly as DSH returns it. */
export function MessagesView({ state }: { state: CursorState | null }) {
  if (!state) return null;
  return (
    <div className="messages" aria-label="Messages at cursor">
      <div className="panel-toolbar">
        <span className="muted">{state.messages.length} messages the model would be sent after seq {state.seq}</span>
        <PartialNote analysis={ANALYSES.surface} seq={state.seq} />
        <button onClick={() => void navigator.clipboard?.writeText(JSON.stringify(state.messages, null, 2))}>Copy as JSON</button>
        <button onClick={() => downloadJson(`messages-at-seq-${state.seq}.json`, state.messages)}>Download</button>
        <button onClick={() => downloadJson(`surface-at-seq-${state.seq}.json`, { seq: state.seq, nodes: state.nodes.map((n) => n.seq), replaceGeneration: state.replaceGeneration, contentGeneration: state.contentGeneration })}>Surface</button>
      </div>
      <div className="scroll json">
        {state.messages.map((m, i) => (
          <div key={`${m.id}-${i}`} className={`message role-${m.role}`}>
            <JsonView name={`${i} ${m.role} · ${sourceLabel(m.source) ?? 'no source'}`} value={m} open={1} />
          </div>
        ))}
      </div>
    </div>
  );
}
