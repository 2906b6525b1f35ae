import { create } from 'zustand';
import type { Edit } from '../core/whatif/edits.ts';
import type { SideTab, Theme } from './view.ts';

/** The view a link carries (url.ts writes and reads it as the address's hash). */
export interface LinkState {
  /** The log the link was made on: its file name and fingerprint. */
  log?: string;
  fingerprint?: string;
  /** `c`: the cursor's event index. */
  cursor?: number;
  /**
   * `cs`: the cursor as a seq, for links made without the loaded log at hand
   * (`dsh-devtools open --at SEQ`); used when `c` is absent. Read, never
   * written: once the log loads the hash carries `c` again.
   */
  cursorSeq?: number;
  selected?: number;
  tab?: SideTab;
  theme?: Theme;
  search?: string;
  hide?: string[];
  columns?: [number, number];
  /** `raw`: the events list shows every streamed delta as a row. */
  rawStreams?: boolean;
  /** `rq`: the Requests view full-window; `rs` its sort (`id` or `-id`), `rf` its filter, `rh` hidden columns. */
  requests?: { full?: boolean; sort?: { id: string; desc: boolean } | null; filter?: string; hidden?: string[] };
  /** Compare mode (docs/compare.md): B's workspace entry, the shared cursor's row and B's cursor (A's is `cursor`). */
  compare?: { entry: number; row?: number; b?: number };
  /**
   * What if (docs/whatif.md): `wi` the edit list (base64url JSON: `edits` written, `param`
   * as read, for the worker to check), `wo` whether its re-fold is shown in compare mode
   * (then `cr` and `cb` are its cursors).
   */
  whatIf?: { edits?: Edit[]; param?: string; folded: boolean; row?: number; b?: number };
  /** `notes`: notes that travel with the link (core/notes/notes-link.ts), as read; imported once, never written back. */
  notes?: string;
  /** `cmd`: a command's stable id, run once the log is open (docs/notes.md), as Perfetto's links do. */
  cmd?: string;
}

/**
 * A link opened on a page that does not have its log (docs/open-and-navigate.md): kept here
 * until that log is opened (then its view is applied) or the user dismisses
 * it. While it waits, the address keeps the link as it came.
 */
export interface LinkStore {
  pending: LinkState | null;
  setPending(link: LinkState | null): void;
  /** A link's `cmd=`, waiting for its log to be open (the UI's command table runs it). */
  command: string | null;
  setCommand(command: string | null): void;
}

export const useLink = create<LinkStore>((set) => ({
  pending: null,
  setPending: (pending) => set({ pending }),
  command: null,
  setCommand: (command) => set({ command }),
}));
