import { useCursor } from '../../store/cursor.ts';
import { useView } from '../../store/view.ts';
import type { CursorState } from '../../worker/protocol.ts';
import { useWorkerQuery } from './useWorkerQuery.ts';

/** The folded state at the cursor, asked of the worker; the latest request wins. */
export function useCursorState(): CursorState | null {
  const index = useCursor((s) => s.index);
  const transcript = useView((s) => s.surfaceMode === 'transcript');
  const messages = useView((s) => s.sideTab === 'messages');
  return useWorkerQuery((client) => client.state(index, transcript, messages), [index, transcript, messages]);
}
