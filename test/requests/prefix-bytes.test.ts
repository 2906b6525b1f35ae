import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { buildRequests } from '../../src/core/requests/analyze.ts';
import { utf8Bytes } from '../../src/core/requests/hash.ts';
import { serializeForPrefix } from '../../src/core/requests/prefix.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';

/** The per-message byte accounting must equal the plain string computation it replaces. */
describe('prefix bytes computed per message equal the serialized-string prefix', () => {
  for (const [dialect, seed] of [['v0', 3], ['v4', 5], ['v0', 8]] as const) {
    it(`${dialect} seed ${seed}`, () => {
      const session = foldSession(readLogText(generateLog({ dialect, seed, turns: 6, compactEvery: 2 }).text));
      const { requests } = buildRequests(session);
      expect(requests.length).toBeGreaterThan(10);
      const text = (r: (typeof requests)[number]) => serializeForPrefix(r.header?.system, r.header?.tools, r.messages);
      let broken = 0;
      requests.forEach((r, i) => {
        const cur = text(r);
        expect(r.prefix.bytes).toBe(utf8Bytes(cur));
        if (i === 0) return;
        const prev = text(requests[i - 1]);
        let k = 0;
        while (k < prev.length && k < cur.length && prev.charCodeAt(k) === cur.charCodeAt(k)) k++;
        expect(r.prefix.keptBytes, `request ${i}`).toBe(utf8Bytes(cur, k));
        if (!r.prefix.extendsPrevious) broken++;
      });
      expect(broken).toBeGreaterThan(0); // compactions break the prefix: the partial-message path is exercised
    });
  }
});
