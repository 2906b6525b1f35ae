import { create } from 'zustand';
import { DEFAULT_LINK_LIMIT } from '../core/share/fragment.ts';
import type { LoadSource } from '../worker/protocol.ts';

/**
 * Where a shared log came from (docs/share-and-privacy.md): embedded in this single file, or
 * inside the link. The notice shows while that log is the open one; another
 * log opened replaces it. The link limit is the user's, kept on this machine.
 */
export interface ShareOrigin {
  kind: 'file' | 'link';
  source: LoadSource;
  name: string;
  redacted: boolean;
  redactions: number;
  /** The gzip's size (what the file or link carried). */
  bytes: number;
  /** A link's log parameters (`zn=…&z=…`), kept in the address while its log is open so a reload keeps it. */
  fragmentTail?: string;
}

export interface ShareStore {
  origin: ShareOrigin | null;
  /** Most characters of fragment a link with its log may have. */
  linkLimit: number;
  setOrigin(origin: ShareOrigin | null): void;
  setLinkLimit(limit: number): void;
}

const LIMIT_KEY = 'dsh-devtools.linkLimit';

function storedLimit(): number {
  try {
    const n = Number(globalThis.localStorage?.getItem(LIMIT_KEY));
    return Number.isSafeInteger(n) && n >= 1024 ? n : DEFAULT_LINK_LIMIT;
  } catch {
    return DEFAULT_LINK_LIMIT;
  }
}

export const useShare = create<ShareStore>((set) => ({
  origin: null,
  linkLimit: storedLimit(),
  setOrigin: (origin) => set({ origin }),
  setLinkLimit: (linkLimit) => {
    try { globalThis.localStorage?.setItem(LIMIT_KEY, String(linkLimit)); } catch { /* private mode: this tab only */ }
    set({ linkLimit });
  },
}));
