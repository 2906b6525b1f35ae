/**
 * The key of a (turn, step). Chunk events come by the thousand within one
 * step, so the last key is kept and handed out again (no string per event).
 */
let lastTurn: unknown = undefined;
let lastStep: unknown = undefined;
let lastKey = 'undefined:undefined';
export function stepKey(turn: unknown, step: unknown): string {
  if (turn !== lastTurn || step !== lastStep) {
    lastTurn = turn;
    lastStep = step;
    lastKey = `${String(turn)}:${String(step)}`;
  }
  return lastKey;
}
