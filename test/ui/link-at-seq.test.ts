// @vitest-environment jsdom
// `dsh-devtools open --at SEQ` puts `#cs=SEQ` in the app's URL: the cursor
// lands on that seq once the log loads (the hash carries event indexes, `c`).
import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { useCursor } from '../../src/store/cursor.ts';
import { useSession } from '../../src/store/session.ts';
import { decodeHash } from '../../src/store/url.ts';
import { inProcessClient } from './harness.ts';

// DSH numbers events from 0 with no gap, so seq and index agree; a log with a
// seq missing (a refused log, still shown whole) is where they part.
const full = generateLog({ dialect: 'v4', seed: 12, turns: 3 }).text.split('\n');
const text = full.filter((line) => !line.includes('"seq":50,')).join('\n');
const seqs = readLogText(text).events.map((e) => e.seq);

async function openAt(options: { cursor?: number; cursorSeq?: number }): Promise<number> {
  const { client } = inProcessClient();
  useSession.setState({ client, summary: null, workspace: [], error: null, status: 'idle' });
  await useSession.getState().open({ kind: 'text', text, name: 'at.jsonl' }, options);
  expect(useSession.getState().status).toBe('ready');
  return useCursor.getState().index;
}

describe('a link that names the cursor by seq (cs=)', () => {
  it('is read from the hash beside c', () => {
    expect(decodeHash('#cs=40')).toMatchObject({ cursorSeq: 40, cursor: undefined });
    expect(decodeHash('#c=3&cs=40')).toMatchObject({ cursorSeq: 40, cursor: 3 });
    expect(decodeHash('#cs=-1').cursorSeq).toBeUndefined();
  });

  it('lands the cursor on the event with that seq, or the next one; past the end, on the last', async () => {
    expect(seqs.indexOf(60)).toBe(59);
    expect(await openAt({ cursorSeq: 60 })).toBe(59);
    expect(await openAt({ cursorSeq: 50 })).toBe(seqs.indexOf(51));
    expect(await openAt({ cursorSeq: 0 })).toBe(0);
    const last = await openAt({ cursorSeq: seqs[seqs.length - 1] + 1000 });
    expect(last).toBe(useSession.getState().summary!.count - 1);
    expect(useCursor.getState().selected).toBe(last);
  });

  it('gives way to c (an event index) when a link has both', async () => {
    expect(await openAt({ cursor: 2, cursorSeq: seqs[10] })).toBe(2);
  });
});
