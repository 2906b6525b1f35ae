import { describe, expect, it } from 'vitest';
import { checkPayload, QUICK_VALID } from '../../src/core/log/payloads.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { Rng } from '../../src/core/generate/prng.ts';
import type { LogEvent } from '../../src/core/log/types.ts';

// Values a mutation may put in a field: of the right and of the wrong kind.
const VALUES: unknown[] = [0, 1, 2, -1, 1.5, '', 'x', null, true, [], {}, { type: '' }, { type: 'text-delta' }, Number.MAX_SAFE_INTEGER + 2, undefined];

function mutate(data: any, rng: Rng): any {
  const copy = JSON.parse(JSON.stringify(data ?? null));
  if (copy === null || typeof copy !== 'object') return rng.pick(VALUES);
  const keys = [...Object.keys(copy), 'turn', 'step', 'chunk', 'callId', 'name', 'arguments'];
  const key = rng.pick(keys);
  if (key === 'chunk' && copy.chunk && typeof copy.chunk === 'object' && rng.chance(0.5)) copy.chunk.type = rng.pick(VALUES);
  else if (rng.chance(0.2)) delete copy[key];
  else copy[key] = rng.pick(VALUES);
  return copy;
}

describe('quick payload checks', () => {
  it('never pass a payload the schema rejects (on generated payloads and thousands of mutations)', () => {
    const rng = new Rng(5);
    let checked = 0;
    for (const dialect of ['v0', 'v4'] as const) {
      const { events } = generateLog({ dialect, seed: 3, turns: 4 });
      for (const e of events) {
        const quick = QUICK_VALID[e.type];
        if (!quick) continue;
        for (let k = 0; k < 20; k++) {
          const data = k === 0 ? e.data : mutate(e.data, rng);
          if (!quick(data)) continue;
          checked++;
          // With the quick path taken out of the way, the schema must agree.
          const saved = QUICK_VALID[e.type];
          delete QUICK_VALID[e.type];
          try {
            expect(checkPayload({ ...e, data } as LogEvent, dialect)).toBeNull();
          } finally {
            QUICK_VALID[e.type] = saved;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});
