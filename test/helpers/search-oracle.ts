import { Rng } from '../../src/core/generate/prng.ts';
import type { EventList } from '../../src/core/log/event-list.ts';
import type { EventStore } from '../../src/core/log/event-store.ts';
import { eventPreview } from '../../src/core/replay/preview.ts';
import { matchesQuery, noteCall, parseQuery } from '../../src/core/search/query.ts';
import { Engine } from '../../src/worker/engine.ts';

/** A log loaded as the app loads it, and the engine's event store (what a search reads). */
export async function loadedForSearch(text: string): Promise<{ engine: Engine; events: EventStore }> {
  const engine = new Engine();
  await engine.load({ kind: 'text', text, name: 'log.jsonl' }, () => {});
  return { engine, events: (engine as unknown as { replay: { session: { events: EventStore } } }).replay.session.events };
}

/** The search without any shortcut: every event (of a store, or an array) parsed and matched, in order, with its turn. */
export function bruteSearch(events: Pick<EventList, 'length' | 'at'>, query: string): number[] {
  const q = parseQuery(query);
  const names = new Map<string, string>();
  let turn = 0;
  const out: number[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events.at(i)!;
    if (e.type === 'turn/start' && typeof e.data?.turn === 'number') turn = e.data.turn;
    noteCall(e, names);
    if (matchesQuery(q, e, typeof e.data?.turn === 'number' ? e.data.turn : turn, names)) out.push(i);
  }
  return out;
}

export const stringsOf = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.flatMap(stringsOf) : v && typeof v === 'object' ? Object.values(v).flatMap(stringsOf) : []);

/** Fixed queries: labels, numbers, glued pieces, escapes, case, filters. */
const FIXED = ['turn', 'object', 'image', 'offloaded', 'todos', '3', 'cwd', 'plugin', 'record', 'true', 'null', 'undefined', '1000', '4.5e+21', 'delta', 'text-delta', 'acme/m-1', 'bash(ls', 'grep({', 'σ', 'ς', 'k-kelvin', 'i̇stanbul', 'café', '/path', 'error', 'tool:bash', 'tool:grep exit', 'tool:late', 'role:user error', 'role:user', 'role:assistant', 'role:tool', 'role:system', 'role:developer café', 'tool:read_file', 'tool:bash role:assistant', 'turn:1 line', 'type:x "code 1"', '"exit code 1"', 'zzqqxx'];

/** Queries cut at random from what the events show and hold (types, previews, values), plus the fixed ones. */
export function queriesFrom(events: EventStore, seed: number, count: number): string[] {
  const rng = new Rng(seed);
  const texts: string[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events.peek(i)!;
    texts.push(e.type, eventPreview(e), ...stringsOf(e.data).map((s) => s.slice(0, 400)));
  }
  const out = new Set(FIXED);
  for (let tries = 0; out.size < count && tries < count * 50; tries++) {
    const t = texts[rng.int(0, texts.length - 1)];
    if (!t) continue;
    const len = rng.int(1, 14);
    const at = rng.int(0, Math.max(0, t.length - len));
    const cut = t.slice(at, at + len).trim();
    if (!cut || cut.includes('"')) continue;
    out.add(/\s/.test(cut) ? `"${cut}"` : cut);
  }
  return [...out];
}
