import { describeEdit, editedLogName } from '../../core/whatif/edits.ts';
import { useCompare } from '../../store/compare.ts';
import { useSession } from '../../store/session.ts';
import { useWhatIf } from '../../store/whatif.ts';
import { whatIfClient } from '../../worker/whatif-client.ts';
import { downloadBlob, downloadJson } from '../export.ts';
import { sameEdits } from './same-edits.ts';
import './whatif.css';

/**
 * The what-if edits stacked on the open log (docs/whatif.md): each listed and
 * removable, the re-fold that opens compare mode on them, and the downloads
 * (the edited log, named as edited because DSH allows no note inside it, and
 * the edit list the CLI's `whatif --edits` reads).
 */
export function WhatIfBar() {
  const edits = useWhatIf((s) => s.edits);
  const status = useWhatIf((s) => s.status);
  const folded = useWhatIf((s) => s.folded);
  const problems = useWhatIf((s) => s.problems);
  const error = useWhatIf((s) => s.error);
  const { remove, clear, run } = useWhatIf.getState();
  const name = useSession((s) => s.summary?.name ?? 'log.jsonl');
  const client = useSession((s) => s.client);
  const comparing = useCompare((s) => s.status === 'ready' && s.entry === null);
  if (!edits.length && status !== 'error') return null;
  const shown = folded !== null && comparing;
  const current = shown && sameEdits(folded, edits);
  const downloadLog = async () => {
    if (client) downloadBlob(editedLogName(name), await whatIfClient(client)['whatif-file']());
  };
  return (
    <section className="whatif-bar" aria-label="What if">
      <div className="whatif-row">
        <strong>What if</strong>
        <ol className="whatif-edits" aria-label="Edits">
          {edits.map((e, i) => (
            <li key={i} className="whatif-edit">
              <span>{describeEdit(e)}</span>
              <button className="link" aria-label={`Remove edit ${i + 1}`} title="Remove this edit" onClick={() => remove(i)}>×</button>
            </li>
          ))}
        </ol>
        <span className="spacer" />
        {status === 'folding' && <span role="status">Re-folding the edited log…</span>}
        {edits.length > 0 && !current && <button disabled={status === 'folding'} onClick={() => void run()}>{shown ? 'Re-fold with these edits' : 'Re-fold and compare'}</button>}
        {shown && current && <button onClick={() => useCompare.getState().exit()}>Back to the log</button>}
        {shown && current && <button onClick={() => void downloadLog()} title={`Saves ${editedLogName(name)}: a DSH log with the edits applied`}>Download edited log</button>}
        {edits.length > 0 && <button onClick={() => downloadJson(editedLogName(name).replace(/\.jsonl$/, '.edits.json'), edits)} title="The edit list, as dsh-devtools whatif --edits reads it">Download edits</button>}
        <button onClick={clear}>Clear</button>
      </div>
      {status === 'error' && error && <div className="diag error" role="alert">What if: {error}</div>}
      {shown && current && problems.map((p, i) => (
        <div key={i} className="diag warning" role="note">{p.edit !== undefined ? `edit ${p.edit + 1}: ` : ''}{p.message}</div>
      ))}
    </section>
  );
}
