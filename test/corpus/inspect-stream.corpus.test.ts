import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inspect, inspectSession } from '../../src/core/inspect.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { loadSession } from '../../src/core/session/stream-load.ts';
import { corpusLogs } from './corpus-dir.ts';

const logs = corpusLogs();

describe('inspect streamed (the CLI for logs too big to hold as objects) on the real DSH corpus', () => {
  it.each(logs.map((l) => [l.name, l] as const))('%s: streamed = read whole', async (_name, log) => {
    const text = fs.readFileSync(log.file, 'utf8');
    for (const at of [undefined, 7]) {
      const streamed = inspectSession(await loadSession([new TextEncoder().encode(text)]), { at });
      expect(JSON.stringify(streamed)).toBe(JSON.stringify(inspect(readLogText(text), { at })));
    }
  });
});
