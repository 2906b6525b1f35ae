import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRun } from '../../src/core/compare/run.ts';
import { redactSecrets } from '../../src/core/export/redact.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { traceRequests } from '../../src/core/otlp/requests.ts';
import { sessionTrace } from '../../src/core/otlp/session-trace.ts';
import { traceSourceOf } from '../../src/core/otlp/source.ts';
import { throughProtobuf } from '../helpers/otlp-proto.ts';
import { expectWalkAgreesWithSeek } from '../helpers/call-messages-agree.ts';
import { corpusLogs } from './corpus-dir.ts';

/** The OTLP export (docs/otlp.md) of every real DSH log: through the protobuf schema, a span per turn, call and tool call. */
describe('OTLP export, on the real DSH corpus', () => {
  it.each(corpusLogs().map((l) => [l.name, l.file] as const))('%s', (name, file) => {
    const read = readLogText(fs.readFileSync(file, 'utf8'));
    const loaded = loadRun(read, name);
    const trace = sessionTrace(traceSourceOf(loaded), { content: true, redact: (t) => redactSecrets(t).text, version: 'test' });
    for (const request of traceRequests(trace, 64)) expect(throughProtobuf(request).back).toEqual(JSON.parse(JSON.stringify(request)));
    const logged = read.events.slice(0, loaded.replay.session.loggedCount);
    const op = (name: string) => trace.spans.filter((s) => s.attributes?.some((a) => a.key === 'gen_ai.operation.name' && 'stringValue' in a.value && a.value.stringValue === name)).length;
    expect(op('chat')).toBe(loaded.run.requests.length);
    expect(op('execute_tool')).toBe(logged.filter((e) => e.type === 'tool/call').length);
    expect(trace.counts.turns).toBe(logged.filter((e) => e.type === 'turn/start').length);
    const ids = new Set(trace.spans.map((s) => s.spanId));
    for (const s of trace.spans) if (s.parentSpanId) expect(ids.has(s.parentSpanId)).toBe(true);
    // Each chat span's input is read from one forward walk of the surface: it must be what a seek to the call gives.
    expectWalkAgreesWithSeek(loaded);
  });
});
