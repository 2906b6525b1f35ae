import { create } from 'zustand';
import type { LinkState } from './url.ts';

/**
 * A link opened on a page that does not have its log (issue #17): kept here
 * until that log is opened (then its view is applied) or the user dismisses
 * it. While it waits, the address keeps the link as it came.
 */
export interface LinkStore {
  pending: LinkState | null;
  setPending(link: LinkState | null): void;
}

export const useLink = create<LinkStore>((set) => ({
  pending: null,
  setPending: (pending) => set({ pending }),
}));
