import { describe, expect, it } from 'vitest';
import { answer, clientOf, operation } from '../../src/worker/operation-table.ts';
import { OPERATIONS } from '../../src/worker/operations.ts';
import { COMPARE_OPERATIONS } from '../../src/worker/compare-protocol.ts';
import { FOLLOW_OPERATIONS } from '../../src/worker/follow-protocol.ts';

interface Host { scale: number }
const op = operation<Host>();
const TABLE = {
  times: op({ params: ['x', 'y'], run: (host, x: number, y?: number) => host.scale * x * (y ?? 1) }),
  count: op({ params: ['to'], progress: true, run: async (_host, to: number, onProgress: (p: number) => void) => { for (let i = 1; i <= to; i++) onProgress(i); return to; } }),
  fails: op({ params: [], run: () => { throw new Error('no such thing'); } }),
};

describe('an operation table', () => {
  it('answers a request by its named fields, with progress first and extras on every answer', async () => {
    const posted: unknown[] = [];
    await answer(TABLE, { scale: 2 }, { id: 7, op: 'count', to: 2 }, (m) => posted.push(m), { extra: () => ({ note: 1 }) });
    expect(posted).toEqual([{ id: 7, progress: 1 }, { id: 7, progress: 2 }, { id: 7, ok: true, result: 2, note: 1 }]);
    posted.length = 0;
    await answer(TABLE, { scale: 2 }, { id: 8, op: 'fails' }, (m) => posted.push(m));
    await answer(TABLE, { scale: 2 }, { id: 9, op: 'nope' }, (m) => posted.push(m));
    await answer(TABLE, { scale: 2 }, { id: 10, op: 'times', x: 3 }, (m) => posted.push(m), { refuse: () => 'busy' });
    expect(posted).toEqual([{ id: 8, ok: false, error: 'no such thing' }, { id: 9, ok: false, error: 'unknown operation nope' }, { id: 10, ok: false, error: 'busy' }]);
  });

  it('derives a client that names the fields and leaves out the ones not given', async () => {
    const sent: unknown[] = [];
    const client = clientOf(TABLE, async (req, onProgress) => { sent.push(req); onProgress?.(1); return 42; });
    const seen: number[] = [];
    expect(await client.times(3)).toBe(42);
    await client.times(3, 4);
    await client.count(5, (p) => seen.push(p));
    expect(sent).toEqual([{ op: 'times', x: 3 }, { op: 'times', x: 3, y: 4 }, { op: 'count', to: 5 }]);
    expect(seen).toEqual([1]);
  });

  it('declares, for every operation the worker answers, one field per argument of its handler', () => {
    for (const table of [OPERATIONS, COMPARE_OPERATIONS, FOLLOW_OPERATIONS]) {
      for (const [name, def] of Object.entries(table)) {
        const declared = (def as { run: (...a: unknown[]) => unknown }).run.length - 1 - ((def as { progress?: boolean }).progress ? 1 : 0);
        expect(def.params.length, name).toBe(declared);
      }
    }
  });
});
