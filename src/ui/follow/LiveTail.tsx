import { useCursor } from '../../store/cursor.ts';
import { useFollow } from './follow-store.ts';

/**
 * "Live ▸ N new events": shown while following with the cursor moved back
 * (the view stays where the user put it); a click returns to the tail.
 */
export function LiveTail() {
  const on = useFollow((s) => s.status === 'on');
  const newEvents = useFollow((s) => s.newEvents);
  const atEnd = useCursor((s) => s.index >= s.count - 1);
  if (!on || atEnd || newEvents === 0) return null;
  return (
    <button className="live-tail" onClick={() => useFollow.getState().jumpToTail()} title="Back to the end of the log, following it again">
      Live ▸ {newEvents.toLocaleString()} new event{newEvents === 1 ? '' : 's'}
    </button>
  );
}
