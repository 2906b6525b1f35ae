import type { CompareRun } from '../compare/run.ts';
import type { LogEvent } from '../log/types.ts';
import type { Message } from '../messages/types.ts';
import { SURFACE_CHANGE } from '../replay/navigate.ts';
import type { ToolPairs } from '../replay/tool-pairs.ts';
import type { ModelRequest } from '../requests/build.ts';
import type { CallMessages } from '../requests/call-messages.ts';
import { spawnPointOf } from '../workspace/forks.ts';
import { blockText, genAiMessage, openInferenceMessages, type Redact } from './content.ts';
import { spanIdOf, traceIdOf } from './ids.ts';
import { attributes, SPAN_KIND, STATUS_CODE, unixNano, type AttributeValue, type KeyValue, type Span, type SpanEvent, type SpanLink } from './otlp-json.ts';
import { genAiProvider } from './semconv.ts';

/**
 * One DSH session as an OpenTelemetry trace (docs/otlp.md): an
 * `invoke_agent` root span, a span per turn, a `chat {model}` span per model
 * call and an `execute_tool {name}` span per tool call, each with the GenAI
 * conventions' attributes and OpenInference's beside them; a subagent the
 * session spawned is a child `invoke_agent` span of the tool call, linked to
 * the child's own trace; replaces (compaction, pruning) are span events.
 * Everything is read from the loaded log: the calls from the request
 * analysis, tool pairs from the load's pairer, times from the events.
 */

export interface TraceSource {
  run: CompareRun;
  pairs: ToolPairs;
  /** Events in the file: the restore's synthetic closers after them are not exported (they never happened). */
  loggedCount: number;
  /** The messages of the call whose cut is `cut`: needed only with content. */
  callMessages?: (cut: number) => CallMessages;
}

export interface TraceOptions {
  /** Message content, tool arguments and results, system instructions. */
  content: boolean;
  /** With content: each chat span carries its whole input, not only what it added after the call before's cached prefix. */
  fullInput?: boolean;
  /** Every text taken from the log passes through it (the export redactor, or the identity for --raw). */
  redact: Redact;
  /** The exporter's version (the instrumentation scope's). */
  version: string;
}

export interface SessionTrace {
  traceId: string;
  resource: KeyValue[];
  scope: { name: string; version: string };
  /** Parents before their children. */
  spans: Span[];
  counts: { turns: number; calls: number; tools: number; agents: number; replaces: number };
}

interface TurnSpan {
  span: Span;
  startIndex: number;
  /** The last event index inside the turn (its end, or the event before the next turn). */
  endIndex: number;
  events: SpanEvent[];
}

const MS = (e: LogEvent | undefined): number => (e && typeof e.time === 'number' ? e.time : NaN);

export function sessionTrace(source: TraceSource, options: TraceOptions): SessionTrace {
  const { run, pairs } = source;
  const sessionId = run.header?.id ?? run.name;
  const traceId = traceIdOf(sessionId);
  const at = (i: number): LogEvent | undefined => {
    const seq = run.seqAt(i);
    return seq === undefined ? undefined : run.eventAt(seq);
  };
  const timeAt = (i: number): number => MS(at(i));
  const typeIdOf = (name: string): number => run.typeNames.indexOf(name);
  const { typeId, surfaceChange } = run.columns;
  const count = Math.min(run.count, source.loggedCount);
  const redact = options.redact;

  const first = count ? timeAt(0) : NaN;
  const last = count ? timeAt(count - 1) : NaN;
  const created = run.header?.createdAt;
  const rootStart = Number.isFinite(created) && created! > 0 && !(created! > first) ? created! : first;
  const agentName = run.header?.agentPreset ?? (run.header?.origin === 'subagent' ? 'subagent' : 'dsh');
  const firstConfig = run.requests.find((r) => r.config)?.config;
  const rootId = spanIdOf(sessionId, 'root');
  const root: Span = {
    traceId, spanId: rootId, name: `invoke_agent ${agentName}`, kind: SPAN_KIND.internal,
    startTimeUnixNano: unixNano(rootStart), endTimeUnixNano: unixNano(Math.max(last, rootStart)),
    attributes: attributes({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': agentName,
      'gen_ai.agent.id': sessionId,
      'gen_ai.conversation.id': sessionId,
      'gen_ai.provider.name': firstConfig ? genAiProvider(firstConfig.provider) : undefined,
      'gen_ai.request.model': firstConfig?.model,
      'openinference.span.kind': 'AGENT',
      'session.id': sessionId,
      'dsh.session.origin': run.header?.origin,
      'dsh.session.parent': run.header?.parentSession,
      'dsh.log.events': count,
      'dsh.verdict': run.verdict.kind,
    }),
  };
  const rootEvents: SpanEvent[] = [];
  const rootLinks: SpanLink[] = [];
  if (typeof run.header?.parentSession === 'string') {
    rootLinks.push({ traceId: traceIdOf(run.header.parentSession), spanId: spanIdOf(run.header.parentSession, 'root'), attributes: attributes({ 'dsh.link': 'parent-session' }) });
  }

  // Turns, replaces and subagent registrations: one pass over the type column (events are parsed only where one is).
  const turnStart = typeIdOf('turn/start');
  const turnEnd = typeIdOf('turn/end');
  const catalog = typeIdOf('subagent/catalog');
  const workflowAgent = typeIdOf('tool-workflow/agent-start');
  const turns: TurnSpan[] = [];
  let open: TurnSpan | null = null;
  const closeTurn = (t: TurnSpan, endIndex: number, outcome: string, error?: string) => {
    t.endIndex = endIndex;
    t.span.endTimeUnixNano = unixNano(Math.max(timeAt(endIndex), timeAt(t.startIndex)));
    t.span.attributes!.push(...attributes({ 'dsh.turn.outcome': outcome }));
    if (outcome === 'error') t.span.status = { code: STATUS_CODE.error, message: error ? redact(error) : 'error' };
  };
  const replaceEvents: { index: number; event: SpanEvent }[] = [];
  for (let i = 0; i < count; i++) {
    const t = typeId[i];
    if (t === turnStart) {
      if (open) closeTurn(open, i - 1, 'open');
      const e = at(i);
      const n = typeof e?.data?.turn === 'number' ? e.data.turn : turns.length + 1;
      const span: Span = {
        traceId, spanId: spanIdOf(sessionId, `turn:${turns.length}`), parentSpanId: rootId, name: `turn ${n}`, kind: SPAN_KIND.internal,
        startTimeUnixNano: unixNano(MS(e)), endTimeUnixNano: unixNano(MS(e)),
        attributes: attributes({ 'dsh.turn': n, 'dsh.seq': e?.seq, 'gen_ai.conversation.id': sessionId, 'openinference.span.kind': 'CHAIN', 'session.id': sessionId }),
      };
      open = { span, startIndex: i, endIndex: i, events: [] };
      turns.push(open);
    } else if (t === turnEnd && open) {
      const e = at(i);
      const reason = e?.data?.reason;
      const kind = typeof reason?.kind === 'string' ? reason.kind : 'ended';
      const message = typeof reason?.error?.message === 'string' ? reason.error.message : undefined;
      closeTurn(open, i, kind, message);
      open = null;
    } else if (t === catalog || t === workflowAgent) {
      const e = at(i);
      const point = e ? spawnPointOf(e) : null;
      if (point?.childId) {
        rootEvents.push({ timeUnixNano: unixNano(MS(e)), name: 'dsh.subagent', attributes: attributes({ 'dsh.seq': point.seq, 'gen_ai.agent.id': point.childId, 'gen_ai.agent.name': options.content && point.label ? redact(point.label) : undefined, 'dsh.subagent.kind': point.kind }) });
        rootLinks.push({ traceId: traceIdOf(point.childId), spanId: spanIdOf(point.childId, 'root'), attributes: attributes({ 'dsh.link': 'child-session', 'dsh.seq': point.seq }) });
      }
    }
    if (surfaceChange[i] === SURFACE_CHANGE.replace) replaceEvents.push({ index: i, event: replaceEvent(i) });
  }
  if (open) closeTurn(open, count - 1, 'open');

  function replaceEvent(i: number): SpanEvent {
    const e = at(i);
    const before = i > 0 ? at(i - 1) : undefined;
    const op = e?.surfaceOp && e.surfaceOp !== 'append' ? e.surfaceOp : null;
    const start = op ? ('startSeq' in op ? op.startSeq : op.start) : undefined;
    const end = op ? ('endSeq' in op ? op.endSeq : op.end) : undefined;
    const kind = before?.type === 'compaction/summary' ? 'compaction' : before?.type === 'compaction/prune' ? 'prune' : 'replace';
    const priced = kind === 'replace' ? undefined : before?.data;
    return {
      timeUnixNano: unixNano(MS(e)), name: `dsh.${kind}`,
      attributes: attributes({
        'dsh.seq': e?.seq, 'dsh.event.type': e?.type, 'dsh.replace.start_seq': start, 'dsh.replace.end_seq': end,
        'dsh.compaction.id': typeof priced?.compactionId === 'string' ? priced.compactionId : undefined,
        'dsh.shadowed.token_count': typeof priced?.shadowedTokenCount === 'number' ? priced.shadowedTokenCount : undefined,
      }),
    };
  }

  /** The turn span holding event index `i`, else null (turns ascend by start). */
  const turnOf = (i: number): TurnSpan | null => {
    let lo = 0;
    let hi = turns.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (turns[mid].startIndex <= i) { found = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return found >= 0 && turns[found].endIndex >= i ? turns[found] : null;
  };
  for (const r of replaceEvents) (turnOf(r.index)?.events ?? rootEvents).push(r.event);

  const calls = chatSpans(source, options, { traceId, sessionId, rootId, at, turnOf });
  const tools: Span[] = [];
  const agents: Span[] = [];
  for (let k = 0; k < pairs.callCount; k++) {
    const pair = pairs.at(k);
    const call = at(pair.call);
    const result = pair.result >= 0 ? at(pair.result) : undefined;
    const callId = typeof call?.data?.callId === 'string' ? call.data.callId : undefined;
    const startMs = MS(call);
    const endMs = result ? MS(result) : startMs;
    const status = pair.result < 0 ? 'pending' : pair.isError ? 'error' : 'ok';
    const spanId = spanIdOf(sessionId, `tool:${call?.seq ?? pair.call}`);
    const content: Record<string, AttributeValue> = {};
    if (options.content) {
      const args = call?.data?.arguments;
      const argText = redact(typeof args === 'string' ? args : JSON.stringify(args ?? null));
      content['gen_ai.tool.call.arguments'] = argText;
      content['input.value'] = argText;
      content['input.mime_type'] = 'application/json';
      if (result) {
        const resultText = redact(toolResultText(result));
        content['gen_ai.tool.call.result'] = resultText;
        content['output.value'] = resultText;
      }
    }
    tools.push({
      traceId, spanId, parentSpanId: turnOf(pair.call)?.span.spanId ?? rootId, name: `execute_tool ${pair.name}`, kind: SPAN_KIND.internal,
      startTimeUnixNano: unixNano(startMs), endTimeUnixNano: unixNano(Math.max(endMs, startMs)),
      attributes: attributes({
        'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': pair.name, 'gen_ai.tool.call.id': callId, 'gen_ai.tool.type': 'function',
        'gen_ai.conversation.id': sessionId,
        'openinference.span.kind': 'TOOL', 'tool.name': pair.name, 'tool_call.id': callId, 'session.id': sessionId,
        'dsh.seq': call?.seq, 'dsh.result_seq': result?.seq, 'dsh.tool.status': status, 'dsh.turn': call?.data?.turn, 'dsh.step': call?.data?.step,
        ...content,
      }),
      ...(status === 'error' ? { status: { code: STATUS_CODE.error, message: 'the tool result is an error' } } : {}),
    });
    const point = call ? spawnPointOf(call) : null;
    if (point?.kind === 'tool-call') {
      // A label is the model's own words (the call's description): content, so only with it.
      const label = options.content && point.label ? redact(point.label) : point.name;
      agents.push({
        traceId, spanId: spanIdOf(sessionId, `agent:${point.seq}`), parentSpanId: spanId, name: `invoke_agent ${label}`, kind: SPAN_KIND.internal,
        startTimeUnixNano: unixNano(startMs), endTimeUnixNano: unixNano(Math.max(endMs, startMs)),
        attributes: attributes({
          'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': label, 'gen_ai.conversation.id': sessionId,
          'openinference.span.kind': 'AGENT', 'session.id': sessionId, 'dsh.seq': point.seq, 'dsh.subagent.fork': point.fork,
        }),
      });
    }
  }

  if (rootEvents.length) root.events = rootEvents;
  if (rootLinks.length) root.links = rootLinks;
  for (const t of turns) if (t.events.length) t.span.events = t.events;
  return {
    traceId,
    resource: attributes({
      'service.name': 'deepseek-harness',
      'telemetry.sdk.name': 'dsh-devtools',
      'telemetry.sdk.language': 'webjs',
      'openinference.project.name': 'dsh',
      'dsh.log.name': run.name,
      'dsh.session.id': sessionId,
    }),
    scope: { name: 'dsh-devtools', version: options.version },
    spans: [root, ...turns.map((t) => t.span), ...calls, ...tools, ...agents],
    counts: { turns: turns.length, calls: calls.length, tools: tools.length, agents: agents.length, replaces: replaceEvents.length },
  };
}

interface ChatContext {
  traceId: string;
  sessionId: string;
  rootId: string;
  at(i: number): LogEvent | undefined;
  turnOf(i: number): TurnSpan | null;
}

/** A `chat {model}` span per model call: from the event before its cut to the event that settled it. */
function chatSpans(source: TraceSource, options: TraceOptions, cx: ChatContext): Span[] {
  const { run } = source;
  const count = Math.min(run.count, source.loggedCount);
  const { typeId } = run.columns;
  const chunk = run.typeNames.indexOf('assistant/chunk');
  const message = run.typeNames.indexOf('assistant/message');
  const attempt = run.typeNames.indexOf('assistant/attempt');
  const redact = options.redact;
  let previousSystem: string | null | undefined = null;
  return run.requests.map((r: ModelRequest) => {
    const cut = run.indexOfSeq(r.cut);
    // rc.8 cuts at an attempt's first chunk, later formats at its settlement (dsh-log-rules P8).
    let settle = cut;
    while (settle < count && typeId[settle] === chunk) settle++;
    if (settle >= count || (typeId[settle] !== message && typeId[settle] !== attempt)) settle = Math.max(cut, settle - 1);
    const sent = cut > 0 ? cx.at(cut - 1) : cx.at(cut);
    const settled = cx.at(settle);
    const startMs = MS(sent);
    const endMs = Math.max(MS(settled), startMs);
    const usage = r.usage ?? {};
    const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
    const input = num(usage.inputTokens);
    const cacheRead = num(usage.cacheReadTokens);
    const cacheWrite = num(usage.cacheWriteTokens);
    const output = num(usage.outputTokens);
    // DSH counts input, cache reads and cache writes apart; the conventions' input count includes the cached ones.
    const inputTotal = input === undefined ? undefined : input + (cacheRead ?? 0) + (cacheWrite ?? 0);
    const config = r.config;
    const model = config?.model ?? r.route?.model ?? 'unknown';
    const responseModel = settled?.type === 'assistant/message' && typeof settled.data?.message?.source?.model === 'string' ? settled.data.message.source.model : undefined;
    const { provider: _p, model: _m, ...params } = config ?? { provider: '', model: '' };
    const content: Record<string, AttributeValue> = {};
    if (options.content && source.callMessages) {
      const messages = source.callMessages(r.cut);
      const from = options.fullInput || r.prefix.previous === null ? 0 : Math.min(r.prefix.keptMessages, messages.count);
      const sent = messages.seqsFrom(from).map((s) => genAiMessage(messages.message(s), redact));
      content['gen_ai.input.messages'] = JSON.stringify(sent);
      content['dsh.input.messages.offset'] = from;
      content['dsh.input.messages.total'] = messages.count;
      Object.assign(content, openInferenceMessages('llm.input_messages', sent, from));
      const system = r.system.text;
      if (typeof system === 'string' && system && system !== previousSystem) content['gen_ai.system_instructions'] = JSON.stringify([{ type: 'text', content: redact(system) }]);
      previousSystem = system;
      if (settled?.type === 'assistant/message' && settled.data?.message) {
        const out = { ...genAiMessage(settled.data.message as Message, redact), finish_reason: r.outcome ?? 'stop' };
        content['gen_ai.output.messages'] = JSON.stringify([out]);
        Object.assign(content, openInferenceMessages('llm.output_messages', [out]));
      }
    }
    const failed = r.outcome === 'error';
    const failure = failed ? settled?.data?.stream?.finish?.reason?.failure ?? settled?.data?.failure : undefined;
    return {
      traceId: cx.traceId, spanId: spanIdOf(cx.sessionId, `call:${r.index}`), parentSpanId: cx.turnOf(cut)?.span.spanId ?? cx.rootId,
      name: `chat ${model}`, kind: SPAN_KIND.client,
      startTimeUnixNano: unixNano(startMs), endTimeUnixNano: unixNano(endMs),
      attributes: attributes({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': config ? genAiProvider(config.provider) : undefined,
        'gen_ai.request.model': model,
        'gen_ai.response.model': responseModel,
        'gen_ai.conversation.id': cx.sessionId,
        'gen_ai.request.temperature': num(config?.temperature),
        'gen_ai.request.max_tokens': num(config?.maxTokens),
        'gen_ai.request.stop_sequences': Array.isArray(config?.stop) ? config.stop.map(String) : undefined,
        'gen_ai.usage.input_tokens': inputTotal,
        'gen_ai.usage.output_tokens': output,
        'gen_ai.usage.cache_read.input_tokens': cacheRead,
        'gen_ai.usage.cache_creation.input_tokens': cacheWrite,
        'gen_ai.usage.reasoning.output_tokens': num(usage.reasoningTokens),
        'gen_ai.response.finish_reasons': r.outcome ? [r.outcome] : undefined,
        'openinference.span.kind': 'LLM',
        'llm.system': config ? genAiProvider(config.provider) : undefined,
        'llm.provider': config?.provider,
        'llm.model_name': responseModel ?? model,
        'llm.invocation_parameters': JSON.stringify(params),
        'llm.token_count.prompt': inputTotal,
        'llm.token_count.completion': output,
        'llm.token_count.total': inputTotal !== undefined && output !== undefined ? inputTotal + output : undefined,
        'llm.token_count.prompt_details.cache_read': cacheRead,
        'llm.token_count.prompt_details.cache_write': cacheWrite,
        'session.id': cx.sessionId,
        'dsh.call.index': r.index,
        'dsh.call.cut_seq': r.cut,
        'dsh.turn': r.turn, 'dsh.step': r.step, 'dsh.attempt': r.attempt,
        'dsh.prefix.kept_messages': r.prefix.keptMessages,
        'dsh.cache.break_reasons': r.prefix.extendsPrevious ? undefined : r.prefix.reasons,
        'dsh.replace_generation': r.replaceGeneration,
        ...content,
      }),
      ...(failed ? { status: { code: STATUS_CODE.error, message: typeof failure?.message === 'string' ? redact(failure.message) : 'the model call failed' } } : {}),
    };
  });
}

/** A tool result's text: the V4 message's content, or the ≤V3 tool-result block's. */
function toolResultText(result: LogEvent): string {
  const m = result.data?.message;
  if (!m) return '';
  if (m.role === 'tool') return blockText(m.content);
  const block = Array.isArray(m.content) ? m.content.find((b: { type?: string }) => b?.type === 'tool-result') : undefined;
  return block ? blockText(block.content) : blockText(m.content);
}
