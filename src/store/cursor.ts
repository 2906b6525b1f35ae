import { create } from 'zustand';

/**
 * The replay cursor and the selected event — hot state that changes on every
 * key press or drag, in a store of its own so a cursor move wakes only the
 * components that select it.
 */
export interface CursorStore {
  /** Index of the event the replay stands on (its effects included). */
  index: number;
  /** Event shown in the inspector; follows the cursor unless pinned by a click. */
  selected: number;
  count: number;
  playing: boolean;
  reset(index: number): void;
  setCount(count: number): void;
  seek(index: number): void;
  select(index: number): void;
  setPlaying(playing: boolean): void;
}

const clamp = (i: number, count: number) => Math.max(0, Math.min(count - 1, i));

export const useCursor = create<CursorStore>((set, get) => ({
  index: 0,
  selected: 0,
  count: 0,
  playing: false,
  reset: (index) => set({ index, selected: index, playing: false }),
  setCount: (count) => set({ count, index: clamp(get().index, count), selected: clamp(get().selected, count) }),
  seek: (index) => { const i = clamp(index, get().count); set({ index: i, selected: i }); },
  select: (index) => set({ selected: clamp(index, get().count) }),
  setPlaying: (playing) => set({ playing }),
}));
