// Issue #22 on every real log: a log packed to be shared (redacted, gzipped)
// and opened again is the same log — the same events, surface and findings —
// and travels in a link when small, or says how big it would be.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readLogText } from '../../src/core/log/reader.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { DEFAULT_LINK_LIMIT, logFragment, readLogFragment } from '../../src/core/share/fragment.ts';
import { packLog, unpackLog } from '../../src/core/share/pack-log.ts';
import { corpusLogs } from './corpus-dir.ts';

const shape = (text: string) => {
  const s = foldSession(readLogText(text));
  return { events: s.events.map((e) => `${e.seq}:${e.type}`), surface: s.surface.nodes, findings: s.diagnostics.map((d) => `${d.code}@${d.seq ?? d.line}`) };
};

describe('corpus logs shared and opened again', () => {
  const logs = corpusLogs();
  it.each(logs.map((l) => [l.name, l.file]))('%s', async (_name, file) => {
    const bytes = fs.readFileSync(file);
    const packed = await packLog([bytes], { redact: true });
    const text = new TextDecoder().decode(await unpackLog(packed.gzip));
    expect(shape(text)).toEqual(shape(bytes.toString('utf8')));
    // These logs hold no secrets: redaction finds none and keeps every byte.
    expect(packed.redactions).toBe(0);
    expect(text).toBe(bytes.toString('utf8'));
    const link = logFragment('c=1', { name: 'x.jsonl', gzip: packed.gzip, redacted: true, redactions: 0 });
    if (link.ok) {
      const read = readLogFragment(`#${link.fragment}`);
      expect(read?.ok && new TextDecoder().decode(await unpackLog(read.log.gzip))).toBe(text);
    } else {
      expect(link.length).toBeGreaterThan(DEFAULT_LINK_LIMIT);
    }
  });
});
