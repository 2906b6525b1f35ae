import { useCompare } from './compare.ts';
import { useSession } from './session.ts';
import type { LoadSource } from '../worker/protocol.ts';

/**
 * Opens dropped or picked files (docs/compare.md): several files are one
 * workspace as before; exactly two that are not parent and child open in
 * compare mode, the first as A (a parent and its child stay a workspace:
 * "Compare with parent" compares them from the fork cut). When the first is
 * not a log, the second is A and the comparison says why the first has
 * nothing to align.
 */
export async function openLogs(sources: LoadSource[]): Promise<void> {
  useCompare.getState().exit();
  await useSession.getState().openMany(sources);
  if (sources.length !== 2) return;
  const { workspace } = useSession.getState();
  if (workspace.length !== 2) return;
  const [x, y] = workspace.map((w) => w.header);
  const related = (x?.id !== undefined && y?.parentSession === x.id) || (y?.id !== undefined && x?.parentSession === y.id);
  if (related) return;
  let b = 1;
  if (useSession.getState().summary?.name !== workspace[0].source.name || useSession.getState().error) {
    await useSession.getState().open(workspace[1].source);
    if (useSession.getState().summary?.name !== workspace[1].source.name) return;
    useSession.getState().dismissError();
    b = 0;
  }
  await useCompare.getState().start(b);
}
