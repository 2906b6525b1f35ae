import { describe, expect, it } from 'vitest';
import { loadRun } from '../../src/core/compare/run.ts';
import { redactSecrets } from '../../src/core/export/redact.ts';
import { generateFork, generateLog, type GenerateOptions } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import type { Span } from '../../src/core/otlp/otlp-json.ts';
import { traceJsonLines, traceRequests } from '../../src/core/otlp/requests.ts';
import { sessionTrace, type SessionTrace, type TraceOptions } from '../../src/core/otlp/session-trace.ts';
import { traceSourceOf } from '../../src/core/otlp/source.ts';
import { idLengths, throughProtobuf } from '../helpers/otlp-proto.ts';
import { logWithSecrets, PLANTED_TEXTS } from '../helpers/planted-secrets.ts';

const OPTIONS: TraceOptions = { content: false, redact: (t) => redactSecrets(t).text, version: '0.0.0-test' };

function exportOf(text: string, options: Partial<TraceOptions> = {}, name = 'session.jsonl') {
  const loaded = loadRun(readLogText(text), name);
  return { loaded, trace: sessionTrace(traceSourceOf(loaded), { ...OPTIONS, ...options }) };
}

const attr = (span: Span, key: string) => {
  const v = span.attributes?.find((a) => a.key === key)?.value;
  if (!v) return undefined;
  if ('stringValue' in v) return v.stringValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('boolValue' in v) return v.boolValue;
  if ('doubleValue' in v) return v.doubleValue;
  return v.arrayValue.values.map((x) => ('stringValue' in x ? x.stringValue : x));
};
const named = (t: SessionTrace, op: string) => t.spans.filter((s) => attr(s, 'gen_ai.operation.name') === op);
const turnSpans = (t: SessionTrace) => t.spans.filter((s) => attr(s, 'openinference.span.kind') === 'CHAIN');

const SHAPES: [string, GenerateOptions][] = [
  ['rc.8 (v0)', { dialect: 'v0', seed: 3, turns: 5 }],
  ['V4 with images and jobs', { dialect: 'v4', seed: 5, turns: 5, imageOffload: true, jobs: true }],
  ['V4, open last turn', { dialect: 'v4', seed: 9, turns: 3, openLastTurn: true }],
  ['0.2.1 with a subagent catalog', { dialect: 'v4', seed: 11, turns: 4, dsh021: true }],
];

describe('OTLP export of a session (docs/otlp.md)', () => {
  it.each(SHAPES)('%s: every request the file holds passes through the OTLP protobuf schema unchanged', (_name, opts) => {
    const { trace } = exportOf(generateLog(opts).text, { content: true });
    const lines = traceJsonLines(trace, 16).trimEnd().split('\n');
    expect(lines.length).toBe(Math.ceil(trace.spans.length / 16));
    for (const line of lines) {
      const request = JSON.parse(line);
      expect(throughProtobuf(request).back).toEqual(request);
      const ids = idLengths(request);
      expect(new Set(ids.trace)).toEqual(new Set([16]));
      expect(new Set(ids.span)).toEqual(new Set([8]));
    }
  });

  it.each(SHAPES)('%s: a span per turn, per model call and per tool call, each under a span of the trace', (_name, opts) => {
    const log = generateLog(opts);
    const { loaded, trace } = exportOf(log.text);
    const types = log.events.map((e) => e.type);
    expect(turnSpans(trace)).toHaveLength(types.filter((t) => t === 'turn/start').length);
    expect(named(trace, 'chat')).toHaveLength(loaded.run.requests.length);
    expect(named(trace, 'execute_tool')).toHaveLength(types.filter((t) => t === 'tool/call').length);
    expect(named(trace, 'invoke_agent').filter((s) => !s.parentSpanId)).toHaveLength(1);
    const ids = new Set(trace.spans.map((s) => s.spanId));
    expect(ids.size).toBe(trace.spans.length);
    for (const s of trace.spans) {
      expect(s.traceId).toBe(trace.traceId);
      if (s.parentSpanId) expect(ids.has(s.parentSpanId), s.name).toBe(true);
      expect(BigInt(s.startTimeUnixNano) <= BigInt(s.endTimeUnixNano), s.name).toBe(true);
    }
    // Each chat span carries its call's logged usage; the conventions' input count includes the cached tokens.
    named(trace, 'chat').forEach((span, i) => {
      const r = loaded.run.requests[i];
      expect(span.name).toBe(`chat ${r.config!.model}`);
      expect(attr(span, 'dsh.call.cut_seq')).toBe(r.cut);
      expect(attr(span, 'gen_ai.usage.output_tokens')).toBe(r.usage?.outputTokens);
      if (typeof r.usage?.inputTokens === 'number') {
        expect(attr(span, 'gen_ai.usage.input_tokens')).toBe(r.usage.inputTokens + (r.usage.cacheReadTokens ?? 0) + (Number(r.usage.cacheWriteTokens) || 0));
        expect(attr(span, 'llm.token_count.prompt')).toBe(attr(span, 'gen_ai.usage.input_tokens'));
      }
      expect(attr(span, 'gen_ai.response.finish_reasons')).toEqual(r.outcome ? [r.outcome] : undefined);
    });
  });

  it('compactions and tool-result rewrites are span events naming the replace', () => {
    const log = generateLog({ dialect: 'v0', seed: 3, turns: 5, compactEvery: 2 });
    const { loaded, trace } = exportOf(log.text);
    const replaces = log.events.filter((e) => e.surfaceOp && e.surfaceOp !== 'append');
    expect(replaces.length).toBeGreaterThan(0);
    const events = trace.spans.flatMap((s) => s.events ?? []).filter((e) => e.name.startsWith('dsh.') && e.name !== 'dsh.subagent');
    const seqOf = (e: { attributes?: { key: string; value: unknown }[] }) => Number((e.attributes?.find((a) => a.key === 'dsh.seq')?.value as { intValue: string }).intValue);
    expect(events.map(seqOf).sort((a, b) => a - b)).toEqual(replaces.map((e) => e.seq));
    expect(events.some((e) => e.name === 'dsh.compaction')).toBe(true);
    expect(trace.counts.replaces).toBe(replaces.length);
    expect(loaded.replay.session.loggedCount).toBe(log.events.length);
  });

  it('the same log exports the same trace; another session another trace id; a child links to its parent', () => {
    const text = generateLog({ dialect: 'v4', seed: 5, turns: 3 }).text;
    expect(traceJsonLines(exportOf(text).trace)).toBe(traceJsonLines(exportOf(text).trace));
    const other = exportOf(generateLog({ dialect: 'v4', seed: 6, turns: 3 }).text).trace;
    expect(other.traceId).not.toBe(exportOf(text).trace.traceId);
    const { parent, child } = generateFork({ dialect: 'v4', seed: 4, turns: 3, afterTurn: 1, childTurns: 2 });
    const p = exportOf(parent.text).trace;
    const c = exportOf(child.text).trace;
    const root = c.spans.find((s) => !s.parentSpanId)!;
    expect(root.links?.find((l) => l.traceId === p.traceId)?.spanId).toBe(p.spans.find((s) => !s.parentSpanId)!.spanId);
  });

  it('message content only when asked: the first call sends every message, later ones what follows the cached prefix', () => {
    const text = generateLog({ dialect: 'v4', seed: 5, turns: 3 }).text;
    expect(traceJsonLines(exportOf(text).trace)).not.toContain('gen_ai.input.messages');
    const { loaded, trace } = exportOf(text, { content: true });
    const chats = named(trace, 'chat');
    chats.forEach((span, i) => {
      const r = loaded.run.requests[i];
      const sent = JSON.parse(String(attr(span, 'gen_ai.input.messages')));
      const offset = Number(attr(span, 'dsh.input.messages.offset'));
      expect(offset).toBe(i === 0 ? 0 : r.prefix.keptMessages);
      expect(offset + sent.length).toBe(r.messageCount);
      expect(sent.map((m: { role: string }) => m.role)).toEqual(r.messages.slice(offset).map((m) => (m.role === 'user' && m.content.every((b) => b.type === 'tool-result') ? 'tool' : m.role)));
    });
    const full = named(exportOf(text, { content: true, fullInput: true }).trace, 'chat');
    full.forEach((span, i) => expect(JSON.parse(String(attr(span, 'gen_ai.input.messages')))).toHaveLength(loaded.run.requests[i].messageCount));
    expect(chats.some((s) => attr(s, 'gen_ai.output.messages') !== undefined)).toBe(true);
    expect(named(trace, 'execute_tool').every((s) => typeof attr(s, 'gen_ai.tool.call.arguments') === 'string')).toBe(true);
  });

  it('planted secrets never reach an export unless it is raw', () => {
    const text = logWithSecrets();
    const redacted = traceRequests(exportOf(text, { content: true }).trace).map((r) => JSON.stringify(r)).join('\n');
    for (const secret of PLANTED_TEXTS) expect(redacted).not.toContain(secret);
    expect(redacted).toContain('[REDACTED');
    const raw = traceJsonLines(exportOf(text, { content: true, redact: (t) => t }).trace);
    for (const secret of PLANTED_TEXTS) expect(raw).toContain(secret);
  });
});
