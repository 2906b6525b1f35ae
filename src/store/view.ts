import { create } from 'zustand';

/** View preferences: theme, which tab each panel shows, filters. All of it goes in the link. */
export type Theme = 'system' | 'light' | 'dark';
/** The side panel's tabs in the order it shows them, with their labels (the panel, the palette and links read this). */
export const SIDE_TABS = [
  ['inspector', 'Event'], ['messages', 'Messages'], ['requests', 'Requests'], ['prompt', 'Prompt'],
  ['projections', 'Projections'], ['charts', 'Charts'], ['diagnostics', 'Diagnostics'], ['notes', 'Notes'],
] as const;
export type SideTab = (typeof SIDE_TABS)[number][0];
/** A modal overlay: shortcuts, go to, the command palette, a new note. */
export type Overlay = 'help' | 'goto' | 'palette' | 'note';
/** The toolbar's dialogs (opened by its buttons and by commands). */
export type ToolbarDialog = 'paste' | 'url' | 'recent' | 'export' | 'export-html' | 'compare' | 'link';

export interface ViewStore {
  theme: Theme;
  sideTab: SideTab;
  search: string;
  /** Families hidden from the event list. */
  hiddenFamilies: string[];
  /** Widths of the events and surface columns, in % of the workspace (the side panel takes the rest). */
  columns: [number, number];
  setColumns(columns: [number, number]): void;
  /** Surface panel: the model's view (surface) or the human transcript (append-origin). */
  surfaceMode: 'surface' | 'transcript';
  setSurfaceMode(mode: 'surface' | 'transcript'): void;
  /** Playback speed: events per second, or 0 for as fast as possible. */
  speed: number;
  setSpeed(speed: number): void;
  /** A modal overlay (not part of the link). */
  overlay: Overlay | null;
  /** What the overlay opens with (the go-to box's first text: "call ", "turn "). */
  overlayArg: string;
  setOverlay(overlay: Overlay | null, arg?: string): void;
  /** A toolbar dialog (not part of the link). */
  dialog: ToolbarDialog | null;
  setDialog(dialog: ToolbarDialog | null): void;
  /** Events list: streamed chunks one row per stream (false) or every delta as logged (true). */
  rawStreams: boolean;
  setRawStreams(raw: boolean): void;
  /** The Requests panel takes the whole window. */
  requestsFull: boolean;
  setRequestsFull(full: boolean): void;
  /** Requests table: the sort (column id, descending?), the filter text, the hidden column ids. */
  requestsView: { sort: { id: string; desc: boolean } | null; filter: string; hidden: string[] };
  setRequestsView(view: Partial<ViewStore['requestsView']>): void;
  setTheme(theme: Theme): void;
  setSideTab(tab: SideTab): void;
  setSearch(search: string): void;
  toggleFamily(family: string): void;
}

export const useView = create<ViewStore>((set, get) => ({
  theme: 'system',
  sideTab: 'inspector',
  search: '',
  hiddenFamilies: [],
  columns: [38, 28],
  setColumns: (columns) => set({ columns }),
  surfaceMode: 'surface',
  setSurfaceMode: (surfaceMode) => set({ surfaceMode }),
  speed: 8,
  setSpeed: (speed) => set({ speed }),
  overlay: null,
  overlayArg: '',
  setOverlay: (overlay, arg = '') => set({ overlay, overlayArg: arg }),
  dialog: null,
  setDialog: (dialog) => set({ dialog }),
  rawStreams: false,
  setRawStreams: (rawStreams) => set({ rawStreams }),
  requestsFull: false,
  setRequestsFull: (requestsFull) => set({ requestsFull }),
  requestsView: { sort: null, filter: '', hidden: [] },
  setRequestsView: (view) => set({ requestsView: { ...get().requestsView, ...view } }),
  setTheme: (theme) => set({ theme }),
  setSideTab: (sideTab) => set({ sideTab }),
  setSearch: (search) => set({ search }),
  toggleFamily: (family) => {
    const hidden = get().hiddenFamilies;
    set({ hiddenFamilies: hidden.includes(family) ? hidden.filter((f) => f !== family) : [...hidden, family] });
  },
}));
