import { create } from 'zustand';
import type { EditProblem } from '../core/whatif/apply-edits.ts';
import { editedLogName, type Edit } from '../core/whatif/edits.ts';
import type { WhatIfCall } from '../core/whatif/whatif.ts';
import { whatIfClient } from '../worker/whatif-client.ts';
import { useCompare } from './compare.ts';
import { useSession } from './session.ts';

/**
 * What if (docs/whatif.md): the edits the user stacks on the open log, and
 * the re-fold of the edited log, shown in compare mode against the original
 * (A the log as it is, B as edited). The edits live in the link; the
 * edited log never leaves the worker unless the user downloads it.
 */
export interface WhatIfStore {
  edits: Edit[];
  status: 'idle' | 'folding' | 'ready' | 'error';
  /** The edits compare mode shows the re-fold of (null: none shown). */
  folded: Edit[] | null;
  problems: EditProblem[];
  /** Each aligned call's estimated tokens and kept prefix, before and after. */
  calls: WhatIfCall[] | null;
  error: string | null;
  add(edit: Edit): void;
  remove(index: number): void;
  clear(): void;
  /** Replaces the list (a link's or a file's edits). */
  setEdits(edits: Edit[]): void;
  /** Re-folds the open log with the edits and opens compare mode on the result. */
  run(link?: { row?: number; b?: number }): Promise<void>;
}

/** Re-folds asked for so far: a later one wins over one still folding. */
let runs = 0;
/** The fingerprint of the log the edits name seqs of. */
let editedLog: string | undefined;
const noteLog = () => { editedLog = useSession.getState().summary?.fingerprint; };

export const useWhatIf = create<WhatIfStore>((set, get) => ({
  edits: [],
  status: 'idle',
  folded: null,
  problems: [],
  calls: null,
  error: null,
  add: (edit) => { noteLog(); set({ edits: [...get().edits, edit] }); },
  remove: (index) => set({ edits: get().edits.filter((_, i) => i !== index) }),
  clear: () => {
    runs++;
    if (get().folded) useCompare.getState().exit();
    set({ edits: [], status: 'idle', folded: null, problems: [], calls: null, error: null });
  },
  setEdits: (edits) => { noteLog(); set({ edits }); },
  async run(link) {
    const { client, workspace, active, summary } = useSession.getState();
    const source = workspace[active]?.source;
    if (!client || !source || !summary) return;
    const token = ++runs;
    const edits = get().edits;
    const whatIf = whatIfClient(client);
    const name = editedLogName(source.name);
    let problems: EditProblem[] = [];
    set({ status: 'folding', error: null, problems: [], calls: null, folded: null });
    await useCompare.getState().open({
      entry: null,
      name,
      load: async (onProgress) => {
        const loaded = await whatIf['whatif-load'](source, edits, onProgress);
        problems = loaded.problems;
        return loaded.summary;
      },
    }, link);
    if (token !== runs) return;
    const compare = useCompare.getState();
    if (compare.status !== 'ready' || !compare.b) {
      set({ status: 'error', error: compare.error ?? 'the edited log could not be loaded', problems });
      return;
    }
    try {
      const calls = await whatIf['whatif-calls']({ a: summary.name, b: name });
      if (token === runs) set({ status: 'ready', folded: edits, problems, calls });
    } catch (err) {
      if (token === runs) set({ status: 'error', error: err instanceof Error ? err.message : String(err), problems });
    }
  },
}));

// Edits name the seqs of one log: another log opened drops them, and compare mode ending ends the what-if shown.
useSession.subscribe((s) => {
  if (s.summary && s.summary.fingerprint !== editedLog && useWhatIf.getState().edits.length) useWhatIf.getState().clear();
});
useCompare.subscribe((s) => {
  if (s.status === 'off' && useWhatIf.getState().folded) useWhatIf.setState({ folded: null, status: 'idle', calls: null });
});
