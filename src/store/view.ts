import { create } from 'zustand';

/** View preferences: theme, which tab each panel shows, filters. All of it goes in the link. */
export type Theme = 'system' | 'light' | 'dark';
export type SideTab = 'inspector' | 'diagnostics' | 'messages' | 'projections' | 'prompt' | 'requests';

export interface ViewStore {
  theme: Theme;
  sideTab: SideTab;
  search: string;
  /** Families hidden from the event list. */
  hiddenFamilies: string[];
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
  setTheme: (theme) => set({ theme }),
  setSideTab: (sideTab) => set({ sideTab }),
  setSearch: (search) => set({ search }),
  toggleFamily: (family) => {
    const hidden = get().hiddenFamilies;
    set({ hiddenFamilies: hidden.includes(family) ? hidden.filter((f) => f !== family) : [...hidden, family] });
  },
}));
