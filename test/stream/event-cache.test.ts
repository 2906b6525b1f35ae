import { describe, expect, it } from 'vitest';
import { loadSession } from '../../src/core/session/stream-load.ts';
import { events, header, jsonl, userMessage } from '../helpers/log-builder.ts';

/**
 * The parsed-event cache holds a share of the log's bytes (issue #15: what a
 * loaded log keeps): recently asked events come back without a parse, but a
 * run of big events pushes the oldest out instead of piling up 4,096 of them.
 */
const logOf = (count: number, textBytes: number) => jsonl([header(), ...events(...Array.from({ length: count }, (_, i) => ['user/message', { message: userMessage(`u${i}`, 'x'.repeat(textBytes)) }] as [string, unknown]))]);

async function storeOf(text: string) {
  const bytes = new TextEncoder().encode(text);
  const session = await loadSession([bytes], { sizeHint: bytes.length });
  return session.events;
}

describe('the parsed-event cache', () => {
  it('keeps small events it was asked for (the same object again, no parse)', async () => {
    // 500 events of ~200 bytes: 100 KB of lines, within the 256 KiB the cache holds at least.
    const store = await storeOf(logOf(500, 100));
    const first = store.at(3);
    for (let i = 10; i < 500; i++) store.at(i);
    expect(store.at(3)).toBe(first);
  });

  it('lets go of the oldest big events once their bytes pass its budget', async () => {
    // 40 events of 50 KB: 2 MB of lines against a budget of max(256 KiB, 5% of 2 MB).
    const store = await storeOf(logOf(40, 50_000));
    const first = store.at(0);
    expect(store.at(0)).toBe(first);
    for (let i = 1; i < 40; i++) store.at(i);
    expect(store.at(0)).not.toBe(first);
    expect(store.at(0)).toEqual(first);
    // The newest ones are still there.
    const last = store.at(39);
    expect(store.at(39)).toBe(last);
  });
});
