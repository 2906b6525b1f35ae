import { describe, expect, it } from 'vitest';
import { FollowSession } from '../../src/core/follow/follow-session.ts';
import { TailCursor } from '../../src/core/follow/tail-cursor.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { gzipStored, zstdFrames } from '../../src/core/fuzz/encode.ts';
import { concatBytes } from '../../src/core/util/bytes.ts';
import { loadSession } from '../../src/core/session/stream-load.ts';
import { awkwardCuts, followInPieces, randomCuts } from './follow-check.ts';

const enc = new TextEncoder();

/** A generated log with text that needs several UTF-8 bytes a character. */
function wideLog(dialect: 'v0' | 'v4', seed: number, openLastTurn = false): string {
  const { text } = generateLog({ dialect, seed, turns: 3, openLastTurn });
  // Non-ASCII text inside JSON strings only (never in keys): every "text":"… gets a wide prefix.
  return text.replaceAll('"text":"', '"text":"héllo ✓ 日本 🙂 ');
}

/** Lines grouped in batches, one zstd frame each (how DSH appends). */
function asZstd(text: string, perFrame = 5): Uint8Array {
  const lines = text.split(/(?<=\n)/);
  const batches: string[] = [];
  for (let i = 0; i < lines.length; i += perFrame) batches.push(lines.slice(i, i + perFrame).join(''));
  return zstdFrames(batches);
}

describe('following a growing log (issue #21)', () => {
  it.each([['v0', 3], ['v4', 5], ['v4', 11]] as const)('plain %s log, seed %i: after every append the state equals a load of the bytes so far', async (dialect, seed) => {
    const text = wideLog(dialect, seed, seed === 11);
    const bytes = enc.encode(text);
    const statuses = await followInPieces(bytes, randomCuts(bytes.length, seed, 40, awkwardCuts(bytes)));
    // The cuts landed mid-line (pending bytes) and the log grew through them.
    expect(statuses.some((s) => s.pending > 0)).toBe(true);
    expect(statuses.at(-1)!.events).toBeGreaterThan(statuses[0].events);
  });

  it('zstd frames appended, cut mid-frame', async () => {
    const text = wideLog('v4', 7);
    const raw = asZstd(text);
    // Cuts inside frames: a frame's magic and header bytes too.
    const frameStarts: number[] = [];
    for (let i = 0; i + 3 < raw.length; i++) if (raw[i] === 0x28 && raw[i + 1] === 0xb5 && raw[i + 2] === 0x2f && raw[i + 3] === 0xfd) frameStarts.push(i + 2, i + 6);
    await followInPieces(raw, randomCuts(raw.length, 7, 30, frameStarts.slice(0, 20)));
  });

  it('gzip members appended: the result equals the whole file', async () => {
    const text = wideLog('v0', 9);
    const half = text.indexOf('\n', text.length >> 1) + 1;
    const raw = concatBytes([gzipStored(enc.encode(text.slice(0, half))), gzipStored(enc.encode(text.slice(half)))]);
    const follower = new FollowSession();
    for (let o = 0; o < raw.length; o += 4096) await follower.append(raw.subarray(o, o + 4096));
    const done = await follower.stop();
    const whole = await loadSession([raw]);
    expect(done.loggedCount).toBe(whole.loggedCount);
    expect(done.loggedCount).toBe(generateLog({ dialect: 'v0', seed: 9, turns: 3 }).events.length);
    expect(done.diagnostics).toEqual(whole.diagnostics);
    expect(done.read.scan.encoding).toBe('gzip');
  });

  it('a line without its newline is pending, then torn only when following stops', async () => {
    const text = generateLog({ dialect: 'v4', seed: 2, turns: 2 }).text;
    const cut = text.length - 10;
    const follower = new FollowSession();
    const live = await follower.append(enc.encode(text.slice(0, cut)));
    expect(live.pending).toBeGreaterThan(0);
    expect(follower.findings().some((d) => d.code === 'tail.torn')).toBe(false);
    const done = await follower.stop();
    expect(done.read.tornTail?.bytes).toBe(live.pending);
    expect(done.diagnostics.some((d) => d.code === 'tail.torn')).toBe(true);
  });

  it('rows after a bad row stay pending until a later turn/end commits them', async () => {
    const lines = generateLog({ dialect: 'v4', seed: 4, turns: 2 }).text.split('\n');
    const turnEnds = lines.flatMap((l, i) => (l.includes('"type":"turn/end"') ? [i] : []));
    const bad = turnEnds[0] + 1;
    const broken = [...lines.slice(0, bad), '{"this is": not json', ...lines.slice(bad)];
    const before = enc.encode(broken.slice(0, turnEnds[1] + 1).join('\n') + '\n');
    const follower = new FollowSession();
    const open = await follower.append(before);
    expect(open.events).toBe(turnEnds[0]); // header + events up to the first turn/end
    expect(open.pending).toBeGreaterThan(0);
    const rest = enc.encode(broken.slice(turnEnds[1] + 2).join('\n'));
    await follower.append(enc.encode(broken[turnEnds[1] + 1] + '\n'));
    const committed = follower.status();
    expect(committed.events).toBe(turnEnds[1]); // the later turn/end committed the region (bad row aside)
    expect(committed.pending).toBe(0);
    await follower.append(rest);
    await follower.stop();
  });
});

describe('a followed file that shrinks or is replaced', () => {
  const head = (b: Uint8Array) => b.subarray(0, 4096);
  it('grows, then is truncated, then replaced by another session', () => {
    const a = enc.encode(generateLog({ dialect: 'v4', seed: 1, turns: 2 }).text);
    const b = enc.encode(generateLog({ dialect: 'v4', seed: 2, turns: 3 }).text);
    const cursor = new TailCursor();
    expect(cursor.take({ size: 100, head: head(a.subarray(0, 100)), bytes: a.subarray(0, 100) }).kind).toBe('grew');
    expect(cursor.take({ size: 100, head: head(a.subarray(0, 100)), bytes: new Uint8Array(0) }).kind).toBe('same');
    expect(cursor.take({ size: a.length, head: head(a), bytes: a.subarray(100) })).toEqual({ kind: 'grew', bytes: a.subarray(100) });
    expect(cursor.take({ size: 50, head: head(a.subarray(0, 50)), bytes: new Uint8Array(0) })).toEqual({ kind: 'shrunk', size: 50, offset: a.length });
    // Longer than before, so not a shrink: the header line tells another session.
    expect(cursor.take({ size: b.length, head: head(b), bytes: b.subarray(a.length) })).toEqual({ kind: 'replaced' });
  });
});
