import fs from 'node:fs';
import { describe, it } from 'vitest';
import { corpusLogs } from './corpus-dir.ts';
import { expectEngineMatchesEager, expectStreamMatchesEager } from '../stream/equivalence.ts';

const logs = corpusLogs();

describe('streaming load on the real DSH corpus', () => {
  // Events re-parsed from their bytes equal the eager read (legacy upgrades, numbered rows, torn tails included).
  it.each(logs.map((l) => [l.name, l] as const))('%s: streamed = eager', async (_name, log) => {
    const bytes = new Uint8Array(fs.readFileSync(log.file));
    await expectStreamMatchesEager(bytes, 997);
    if (bytes.length && bytes[0] === 0x7b) await expectEngineMatchesEager(bytes, [0, 3, 17, 100, 333]);
  });
});
