import { useEffect } from 'react';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { command } from '../commands.ts';

const PLAY_INTERVAL_MS = 80;

/** Step-through replay: a slider over every event, step buttons by kind, play. */
export function Scrubber() {
  const summary = useSession((s) => s.summary);
  const index = useCursor((s) => s.index);
  const count = useCursor((s) => s.count);
  const playing = useCursor((s) => s.playing);
  const seek = useCursor((s) => s.seek);

  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(() => {
      const c = useCursor.getState();
      if (c.index >= c.count - 1) c.setPlaying(false);
      else c.seek(c.index + 1);
    }, PLAY_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [playing]);

  if (!summary) return null;
  const col = summary.columns;
  const button = (id: string, text: string) => {
    const c = command(id);
    return <button onClick={c.run} title={`${c.label} (${c.keys.join(', ')})`} aria-label={c.label}>{text}</button>;
  };
  return (
    <div className="scrubber" aria-label="Replay scrubber">
      <div className="scrub-buttons">
        {button('prev-turn', '« turn')}
        {button('prev-step', '◀ step')}
        {button('prev-surface', '◀ surface')}
        {button('prev-event', '◀')}
        <button onClick={command('play').run} aria-label={playing ? 'Pause' : 'Play'}>{playing ? '❚❚' : '▶ play'}</button>
        {button('next-event', '▶')}
        {button('next-surface', 'surface ▶')}
        {button('next-step', 'step ▶')}
        {button('next-turn', 'turn »')}
        {button('next-request', 'call ▶')}
        {button('next-replace', 'replace ▶')}
        {button('next-diagnostic', 'finding ▶')}
      </div>
      <input
        className="scrub-range"
        type="range"
        min={0}
        max={Math.max(0, count - 1)}
        value={index}
        aria-label="Cursor"
        onChange={(e) => seek(Number(e.target.value))}
      />
      <span className="mono cursor-readout" aria-label="Cursor position">
        seq {col.seq[index] ?? '-'} · {summary.typeNames[col.typeId[index]] ?? ''} · turn {col.turn[index]} step {col.step[index]} · {index + 1}/{count}
        {col.synthetic[index] ? ' · synthetic' : ''}
      </span>
    </div>
  );
}
