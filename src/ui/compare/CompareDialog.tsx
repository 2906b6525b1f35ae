import { useRef } from 'react';
import { useCompare } from '../../store/compare.ts';
import { useSession } from '../../store/session.ts';

/**
 * "Compare with…" (docs/compare.md): another session of the workspace, or a file.
 * The open log is A; the pick is B. A parent and its fork child compare from
 * the fork cut without anything to set.
 */
export function CompareDialog({ onClose }: { onClose: () => void }) {
  const workspace = useSession((s) => s.workspace);
  const active = useSession((s) => s.active);
  const summary = useSession((s) => s.summary);
  const client = useSession((s) => s.client);
  const start = useCompare((s) => s.start);
  const fileInput = useRef<HTMLInputElement>(null);
  const id = summary?.header?.id;
  const relation = (i: number) => {
    const h = workspace[i].header;
    if (id && h?.parentSession === id) return h.seedLength || h.isSeeded ? 'fork child: from the fork cut' : 'child session';
    if (h?.id && summary?.header?.parentSession === h.id) return 'parent: from the fork cut';
    return null;
  };
  const pick = (i: number) => { onClose(); void start(i); };
  const addFile = async (file: File) => {
    const source = { kind: 'file' as const, file, name: file.name };
    const header = client ? await client.peek(source).catch(() => null) : null;
    const entries = [...useSession.getState().workspace, { source, header }];
    useSession.setState({ workspace: entries });
    pick(entries.length - 1);
  };
  return (
    <div className="dialog" role="dialog" aria-label="Compare with">
      <p>Compare <strong>{summary?.name}</strong> (A) with (B):</p>
      <ul className="compare-picks">
        {workspace.map((w, i) => i === active ? null : (
          <li key={i}>
            <button className="link" onClick={() => pick(i)}>{w.source.name}</button>
            {relation(i) && <span className="muted"> · {relation(i)}</span>}
          </li>
        ))}
        <li>
          <button className="link" onClick={() => fileInput.current?.click()}>another file…</button>
          <input ref={fileInput} type="file" hidden aria-label="Compare with file" onChange={(e) => { const f = e.target.files?.[0]; e.target.value = ''; if (f) void addFile(f); }} />
        </li>
      </ul>
      <p className="muted">Two files dropped together (not parent and child) open in compare mode too.</p>
      <div className="dialog-actions"><button onClick={onClose}>Cancel</button></div>
    </div>
  );
}
