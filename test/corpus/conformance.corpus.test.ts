import { describe, expect, it } from 'vitest';
import { compareWithReference } from '../../scripts/conformance-lib.ts';
import { readLogFile } from '../../scripts/node-source.ts';
import { corpusLogs } from './corpus-dir.ts';

const withReference = corpusLogs().filter((l) => l.expected);

describe('surface fold and messages equal DSH reference results', () => {
  it.each(withReference.map((l) => [l.name, l] as const))('%s', async (_name, log) => {
    const { mismatches } = compareWithReference(await readLogFile(log.file), log.expected);
    expect(mismatches).toEqual([]);
  });
});
