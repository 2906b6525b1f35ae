import { describe, expect, it } from 'vitest';
import { readLogFile } from '../../scripts/node-source.ts';
import { deriveMessages } from '../../src/core/messages/derive.ts';
import { analyzePrompts } from '../../src/core/requests/analyze.ts';
import { foldRequestHeader } from '../../src/core/prompt/request-header.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { eventLookup, foldSurface } from '../../src/core/surface/fold.ts';
import { corpusLogs } from './corpus-dir.ts';

/**
 * Requests against DSH's own reference results (corpus expected/README.md):
 * every model call at the same cut, turn, step, with deep-equal messages
 * and header; the final folded header. Logs without a reference (V3/V4) must
 * produce their list without error findings, each request equal to a refold
 * of its prefix.
 */
const logs = corpusLogs();
const withRequests = logs.filter((l) => Array.isArray(l.expected?.requests));
const withoutReference = logs.filter((l) => !l.expected);

describe('requests equal DSH reference results', () => {
  it('covers the reference set', () => {
    expect(withRequests.length).toBeGreaterThanOrEqual(98);
  });

  it.each(withRequests.map((l) => [l.name, l] as const))('%s', async (_name, log) => {
    const session = foldSession(await readLogFile(log.file));
    const { requests } = analyzePrompts(session).requests;
    const got = requests.map((r) => ({ cut: r.cut, turn: r.turn, step: r.step, messageCount: r.messageCount, messages: r.messages, header: r.header }));
    expect(JSON.parse(JSON.stringify(got))).toEqual(log.expected.requests);
    if (log.expected.final && 'requestHeader' in log.expected.final) {
      expect(foldRequestHeader(session.events) ?? null).toEqual(log.expected.final.requestHeader ?? null);
    }
  });
});

describe('requests on logs without a reference (V3/V4)', () => {
  it.each(withoutReference.map((l) => [l.name, l] as const))('%s', async (_name, log) => {
    const session = foldSession(await readLogFile(log.file));
    const analysis = analyzePrompts(session);
    expect(analysis.requests.requests.length).toBeGreaterThan(0);
    expect(analysis.findings.filter((f) => f.severity === 'error')).toEqual([]);
    for (const r of analysis.requests.requests) {
      const prefix = session.events.filter((e) => e.seq < r.cut);
      expect(r.messages).toEqual(deriveMessages(foldSurface(prefix, session.read.dialect).state, eventLookup(prefix)));
    }
  });
});

describe('runtime-context join invariant on the corpus', () => {
  it('holds for every snapshot', async () => {
    let snapshots = 0;
    const mismatches: string[] = [];
    for (const log of logs) {
      const analysis = analyzePrompts(foldSession(await readLogFile(log.file)));
      snapshots += analysis.runtimeContext.snapshots.length;
      for (const f of analysis.findings) if (f.code === 'context.join-mismatch') mismatches.push(`${log.name}: ${f.message}`);
    }
    expect(snapshots).toBeGreaterThan(50);
    expect(mismatches).toEqual([]);
  });
});
