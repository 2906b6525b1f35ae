import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import type { LoadSummary } from '../../worker/protocol.ts';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { useView } from '../../store/view.ts';
import { command, useFlash } from '../commands.ts';
import { nextTarget, targetsOf } from '../nav-targets.ts';
import { axisIndexOf } from '../timeline/axis-index.ts';
import type { NavKind } from '../../core/replay/navigate.ts';
import { useNotes } from '../../store/notes.ts';
import { nextNote, stepNote } from '../notes/actions.ts';
import { NoteFlags } from '../notes/NoteFlags.tsx';

const NAV_KINDS = ['surface', 'step', 'turn', 'request', 'replace', 'diagnostic'] as const;

const SPEEDS: [number, string][] = [[8, '1×'], [32, '4×'], [128, '16×'], [0, 'max']];

/** Plays the replay forward at `speed` events per second (0: as fast as frames allow). */
function usePlayback(): void {
  const playing = useCursor((s) => s.playing);
  const speed = useView((s) => s.speed);
  useEffect(() => {
    if (!playing) return;
    let frame = 0;
    let last = performance.now();
    let carry = 0;
    const tick = (now: number) => {
      const c = useCursor.getState();
      if (c.index >= c.count - 1) { c.setPlaying(false); return; }
      carry += speed === 0 ? Math.max(1, Math.ceil(c.count / 600)) : ((now - last) / 1000) * speed;
      last = now;
      const steps = Math.floor(carry);
      if (steps > 0) { carry -= steps; c.seek(Math.min(c.count - 1, c.index + steps)); }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [playing, speed]);
}

/** Step-through replay: a slider over every event with turn ticks, step buttons by kind, play. */
export function Scrubber() {
  const summary = useSession((s) => s.summary);
  const index = useCursor((s) => s.index);
  const count = useCursor((s) => s.count);
  const playing = useCursor((s) => s.playing);
  const seek = useCursor((s) => s.seek);
  const speed = useView((s) => s.speed);
  const setSpeed = useView((s) => s.setSpeed);
  usePlayback();
  const deferredIndex = useDeferredValue(index);
  // The step lists (one pass over the log per kind) are built after the log has painted, not in its first render.
  const [listsReady, setListsReady] = useState<LoadSummary | null>(null);
  useEffect(() => {
    // A log still loading gets new rows every report: its lists are found when a step asks (nextTarget).
    if (!summary || summary.partial) return;
    const t = setTimeout(() => {
      for (const kind of NAV_KINDS) targetsOf(summary, kind);
      setListsReady(summary);
    }, 0);
    return () => clearTimeout(t);
  }, [summary]);
  // Turn starts as fractions of the slider, for the tick strip under it.
  // From the timeline's axis index (kept and extended as a followed log grows), not a walk of every event.
  const turnTicks = useMemo(() => {
    if (!summary) return [];
    const starts = axisIndexOf(summary).turnStarts;
    return starts.length > 400 ? [] : Array.from(starts, (i) => i / Math.max(1, summary.count - 1));
  }, [summary]);

  // The note flags' axis: the whole log, in % (stable while the count is, so the flags skip a step's render).
  const flagX = useCallback((i: number) => (i / Math.max(1, count - 1)) * 100, [count]);

  if (!summary) return null;
  const col = summary.columns;
  const button = (id: string, text: string) => {
    const c = command(id);
    // A step with nowhere to go is disabled (its key says "no next …" in the status line); known once the
    // step lists are built, just after the log's first paint.
    const m = /^(next|prev)-(.+)$/.exec(id);
    const none = m && listsReady === summary ? nextTarget(summary, m[2] as NavKind, deferredIndex, m[1] === 'next' ? 1 : -1) === null : false;
    return <button onClick={c.run} disabled={none} title={`${c.label} (${c.keys.join(', ')})${none ? ' — none' : ''}`} aria-label={c.label}>{text}</button>;
  };
  return (
    <div className="scrubber" role="group" aria-label="Replay scrubber">
      <div className="scrub-buttons">
        {button('prev-diagnostic', '‹ finding')}
        {button('prev-replace', '‹ replace')}
        {button('prev-request', '‹ call')}
        {button('prev-turn', '« turn')}
        {button('prev-step', '‹ step')}
        {button('prev-surface', '‹ surface')}
        {button('prev-event', '‹')}
        <button onClick={command('play').run} aria-label={playing ? 'Pause' : 'Play'}>{playing ? '❚❚' : '▶'}</button>
        <select aria-label="Playback speed" value={speed} onChange={(e) => setSpeed(Number(e.target.value))}>
          {SPEEDS.map(([v, label]) => <option key={v} value={v}>{label}</option>)}
        </select>
        {button('next-event', '›')}
        {button('next-surface', 'surface ›')}
        {button('next-step', 'step ›')}
        {button('next-turn', 'turn »')}
        {button('next-request', 'call ›')}
        {button('next-replace', 'replace ›')}
        {button('next-diagnostic', 'finding ›')}
        <NoteStep dir={-1} index={deferredIndex} />
        <NoteStep dir={1} index={deferredIndex} />
        {button('goto', 'go to…')}
        {button('help', '?')}
      </div>
      <div className="scrub-track">
        <input
          className="scrub-range"
          type="range"
          min={0}
          max={Math.max(0, count - 1)}
          value={index}
          aria-label="Replay cursor"
          data-global-keys=""
          aria-valuenow={col.seq[index]}
          aria-valuetext={`seq ${col.seq[index]}, ${summary.typeNames[col.typeId[index]]}`}
          onChange={(e) => seek(Number(e.target.value))}
        />
        <div className="scrub-ticks" aria-hidden="true">{turnTicks.map((f, i) => <span key={i} style={{ left: `${f * 100}%` }} />)}</div>
        <NoteFlags summary={summary} unit="%" x={flagX} seek={seek} />
      </div>
      <span className="mono cursor-readout" aria-label="Cursor position">
        seq {col.seq[index] ?? '-'} · {summary.typeNames[col.typeId[index]] ?? ''} · turn {col.turn[index]} step {col.step[index]} · {index + 1}/{count}
        {col.synthetic[index] ? ' · synthetic' : ''}
      </span>
      <Flash />
    </div>
  );
}

/** The next/previous note step (n, Shift+N): greyed out when there is none that way. */
function NoteStep({ dir, index }: { dir: 1 | -1; index: number }) {
  const summary = useSession((s) => s.summary);
  const notes = useNotes((s) => s.notes);
  if (!summary) return null;
  const none = summary.partial || nextNote(summary, notes, index, dir) === null;
  const label = dir === 1 ? 'Next note or bookmark' : 'Previous note or bookmark';
  return <button onClick={() => stepNote(dir)} disabled={none} aria-label={label} title={`${label} (${dir === 1 ? 'n' : 'Shift+N'})${none ? ' — none' : ''}`}>{dir === 1 ? 'note ›' : '‹ note'}</button>;
}

/** The last command's "nothing to do" message, for a few seconds. */
function Flash() {
  const text = useFlash((s) => s.text);
  const at = useFlash((s) => s.at);
  const say = useFlash((s) => s.say);
  useEffect(() => {
    if (!text) return;
    const t = setTimeout(() => say(null), 4000);
    return () => clearTimeout(t);
  }, [text, at, say]);
  return <span className="flash" role="status" aria-label="Command status">{text ?? ''}</span>;
}
