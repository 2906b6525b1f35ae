import { useState } from 'react';
import { useDeferredCursor } from '../hooks/useDeferredCursor.ts';
import type { Admission } from '../../core/prompt/admission.ts';
import { useSession } from '../../store/session.ts';

/**
 * "What would DSH admit?": paste a rendered prompt, tick the route flags, and
 * see the system/message commits DSH's projection would make on the surface
 * at the cursor, and which row of its decision table fired.
 */
export function AdmissionBox() {
  const client = useSession((s) => s.client);
  const index = useDeferredCursor();
  const [text, setText] = useState('');
  const [inHistory, setInHistory] = useState(false);
  const [startsSeries, setStartsSeries] = useState(false);
  const [result, setResult] = useState<{ at: number; admission: Admission } | null>(null);
  const run = async () => {
    if (!client) return;
    setResult({ at: index, admission: await client.admit(index, text, { inHistory, startsSeries }) });
  };
  return (
    <details className="admission" aria-label="What would DSH admit?">
      <summary>What would DSH admit?</summary>
      <textarea aria-label="Rendered prompt" rows={5} value={text} onChange={(e) => setText(e.target.value)} placeholder="Paste a rendered system prompt (empty = no prompt)" />
      <div className="panel-toolbar">
        <label><input type="checkbox" checked={inHistory} onChange={(e) => setInHistory(e.target.checked)} /> route takes in-history updates</label>
        <label><input type="checkbox" checked={startsSeries} onChange={(e) => setStartsSeries(e.target.checked)} /> starts a new series</label>
        <button onClick={() => void run()}>Check at cursor</button>
      </div>
      {result && (
        <div className="admission-result" role="status">
          <p>Row {result.admission.row} fired: {result.admission.rule}</p>
          {result.admission.commits.length === 0 ? <p className="muted">No commit: the surface already carries this prompt.</p> : (
            <ol>
              {result.admission.commits.map((c, i) => (
                <li key={i}>
                  {c.role === 'append' ? 'append a new system/message' : c.role === 'head' ? `replace the head (seq ${typeof c.intent === 'object' ? c.intent.replace : '?'})` : `clear the tail node (seq ${typeof c.intent === 'object' ? c.intent.replace : '?'})`}
                  {c.text === '' ? ' with empty content' : ` with ${c.text.length} characters`}
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </details>
  );
}
