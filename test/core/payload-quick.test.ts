import { describe, expect, it } from 'vitest';
import { checkPayload, QUICK_VALID } from '../../src/core/log/payloads.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { Rng } from '../../src/core/generate/prng.ts';
import type { LogEvent } from '../../src/core/log/types.ts';

// Values a mutation may put in a field: of the right and of the wrong kind.
const VALUES: unknown[] = [0, 1, 2, -1, 1.5, '', 'x', null, true, [], {}, { type: '' }, { type: 'text-delta' }, Number.MAX_SAFE_INTEGER + 2, undefined];

/** Keys a quick check reads, at any depth: a mutation may add, drop or change them. */
const KEYS = ['turn', 'step', 'chunk', 'type', 'callId', 'name', 'arguments', 'id', 'role', 'content', 'source', 'kind',
  'provider', 'model', 'toolCallId', 'isError', 'message', 'reason', 'header', 'config', 'reasoningEffort'];

/** One change at a random depth: the payload itself, or an object or array nested in it. */
function mutate(data: any, rng: Rng): any {
  const copy = JSON.parse(JSON.stringify(data ?? null));
  if (copy === null || typeof copy !== 'object') return rng.pick(VALUES);
  let target = copy;
  while (rng.chance(0.6)) {
    const nested = Object.values(target).filter((v) => v !== null && typeof v === 'object');
    if (nested.length === 0) break;
    target = rng.pick(nested);
  }
  if (Array.isArray(target)) {
    if (target.length && rng.chance(0.5)) target.splice(rng.int(0, target.length - 1), 1);
    else target.push(rng.pick(VALUES));
    return copy;
  }
  const key = rng.pick([...Object.keys(target), ...KEYS]);
  if (rng.chance(0.2)) delete target[key];
  else target[key] = rng.pick(VALUES);
  return copy;
}

describe('quick payload checks', () => {
  it('never pass a payload the schema rejects (on generated payloads and thousands of mutations)', () => {
    const rng = new Rng(5);
    let checked = 0;
    const exercised = new Set<string>();
    for (const dialect of ['v0', 'v4'] as const) {
      const { events } = generateLog({ dialect, seed: 3, turns: 8, imageOffload: true });
      for (const e of events) {
        const quick = QUICK_VALID[e.type];
        if (!quick) continue;
        for (let k = 0; k < 40; k++) {
          const data = k === 0 ? e.data : mutate(e.data, rng);
          if (!quick(data, dialect)) continue;
          checked++;
          exercised.add(e.type);
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
    // Every quick check was exercised.
    expect([...exercised].sort()).toEqual(Object.keys(QUICK_VALID).sort());
  });
});
