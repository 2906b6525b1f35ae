import { expect } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics/diagnostic.ts';
import { decodeBytes } from '../../src/core/log/bytes.ts';
import type { EventStore } from '../../src/core/log/event-store.ts';
import type { LogEvent } from '../../src/core/log/types.ts';
import { FollowSession, type FollowStatus } from '../../src/core/follow/follow-session.ts';
import { loadSession } from '../../src/core/session/stream-load.ts';
import type { SessionFold } from '../../src/core/session/fold-session.ts';
import { foldSurface } from '../../src/core/surface/fold.ts';
import { concatBytes } from '../../src/core/util/bytes.ts';
import { mulberry32 } from '../../src/core/generate/prng.ts';

const json = (x: unknown) => JSON.stringify(x, (_k, v) => (v instanceof Map ? [...v] : v));

/** Findings only the end of input makes (the torn tail, counts over the whole file): a live log has none of them yet. */
export const END_ONLY = new Set(['tail.torn', 'bytes.torn-frame', 'bytes.blank-lines', 'bytes.crlf', 'row.numbered', 'header.seed', 'bytes.empty', 'header.missing', 'bytes.not-text']);

/** The reader waits for this many characters before it tells a log from a binary file (reader.ts SNIFF_CHARS). */
const SNIFF_CHARS = 1024;

/** Cut points for `total` bytes: random, plus every kind the issue names when `aim` finds them. */
export function randomCuts(total: number, seed: number, count: number, aim: number[] = []): number[] {
  const rand = mulberry32(seed);
  const cuts = new Set<number>(aim.filter((c) => c > 0 && c < total));
  while (cuts.size < Math.min(count, total - 1)) cuts.add(1 + Math.floor(rand() * (total - 1)));
  return [...cuts].sort((a, b) => a - b);
}

/** Offsets inside a multi-byte UTF-8 character and just before a newline (mid-line cuts), a few of each. */
export function awkwardCuts(plain: Uint8Array, max = 8): number[] {
  const out: number[] = [];
  let multibyte = 0;
  for (let i = 1; i < plain.length && multibyte < max; i++) if ((plain[i] & 0xc0) === 0x80) { out.push(i); multibyte++; i += 64; }
  let lines = 0;
  for (let i = 1; i < plain.length && lines < max; i++) if (plain[i] === 10) { out.push(i); lines++; i += 997; }
  return out;
}

async function decodeAll(raw: Uint8Array): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const b of decodeBytes([raw], [])) parts.push(b);
  return concatBytes(parts);
}

function loggedEvents(fold: SessionFold<EventStore>): LogEvent[] {
  return Array.from({ length: fold.loggedCount }, (_, i) => fold.events.at(i)!);
}

/**
 * A from-scratch load of `raw` (the file so far), ignoring the pending tail:
 * the decoded bytes up to the last newline, through the bulk load.
 */
async function scratch(raw: Uint8Array): Promise<{ fold: SessionFold<EventStore>; decoded: number }> {
  const plain = await decodeAll(raw);
  const end = plain.lastIndexOf(10) + 1;
  return { fold: await loadSession([plain.subarray(0, end)], { cacheSize: 64 }), decoded: plain.length };
}

/** The follower's state after an append equals a from-scratch load of the bytes so far (pending tail aside). */
async function expectMatchesScratch(raw: Uint8Array, status: FollowStatus, follower: FollowSession): Promise<void> {
  const { fold, decoded } = await scratch(raw);
  if (raw.length < 4) {
    // Not enough to tell the encoding by its magic bytes: nothing is read yet.
    expect(status.events).toBe(0);
    return;
  }
  if (decoded < SNIFF_CHARS) {
    // Too little to tell a log from a binary file yet: everything is pending.
    expect(status.events).toBe(0);
    expect(status.pending).toBe(decoded);
    return;
  }
  const events = loggedEvents(fold);
  expect(status.events).toBe(fold.loggedCount);
  expect(status.lastSeq).toBe(events.length ? events[events.length - 1].seq : -1);
  expect(status.nodes).toBe(foldSurface(events, fold.read.dialect).state.nodes.length);
  const live = (ds: Diagnostic[]) => ds.filter((d) => !END_ONLY.has(d.code));
  expect(live(follower.findings())).toEqual(live(fold.diagnostics));
  expect(status.findings).toBe(follower.findings().length);
  // Pending: the decoded bytes after the last line that committed (a bad region's rows included).
  expect(status.pending).toBe(decoded - (fold.read.scan.committedBytes));
}

/**
 * Appends `raw` to a follower in pieces cut at `cuts`, checking the state
 * after every append, then stops and checks the result equals the bulk
 * load of the whole file.
 */
export async function followInPieces(raw: Uint8Array, cuts: number[]): Promise<FollowStatus[]> {
  const follower = new FollowSession({ cacheSize: 64 });
  const seen: FollowStatus[] = [];
  let from = 0;
  for (const cut of [...cuts, raw.length]) {
    if (cut <= from) continue;
    const status = await follower.append(raw.subarray(from, cut));
    from = cut;
    await expectMatchesScratch(raw.subarray(0, cut), status, follower);
    seen.push(status);
  }
  const done = await follower.stop();
  const whole = await loadSession([raw], { cacheSize: 64 });
  expect(done.loggedCount).toBe(whole.loggedCount);
  expect(done.events.length).toBe(whole.events.length);
  for (let i = 0; i < whole.events.length; i++) expect(done.events.at(i)).toEqual(whole.events.at(i));
  expect(json(done.surface)).toBe(json(whole.surface));
  expect(done.diagnostics).toEqual(whole.diagnostics);
  expect(done.read.tornTail).toEqual(whole.read.tornTail);
  expect(done.synthetic).toEqual(whole.synthetic);
  return seen;
}
