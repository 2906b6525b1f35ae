import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readLogText } from '../../src/core/log/reader.ts';
import { expectedPairs, rowPairs } from '../helpers/tool-pair-oracle.ts';
import { corpusLogs } from './corpus-dir.ts';

describe('tool calls paired by the load walk agree with the log\'s sourceEventSeqs (every corpus log)', () => {
  it.each(corpusLogs().map((l) => [l.name, l] as const))('%s', async (_name, log) => {
    const text = fs.readFileSync(log.file, 'utf8');
    const { pairs } = await rowPairs(text);
    expect(pairs).toEqual(expectedPairs(readLogText(text).events));
  });
});
