import { RuntimeContextStream } from '../prompt/context-stream.ts';
import type { DiffLimits } from '../prompt/context-diff.ts';
import { findPromptFailures } from '../prompt/errors.ts';
import { SystemPromptTimeline } from '../prompt/system-timeline.ts';
import type { SessionFold } from '../session/fold-session.ts';
import { RequestBuilder, type ModelRequest, type RequestList } from './build.ts';
import { finding, type PromptFinding } from './findings.ts';
import { walkSurface, type SurfaceVisitor } from '../surface/walk.ts';
import type { SurfaceState } from '../surface/types.ts';

/**
 * System prompt, runtime context and requests of one session in a single
 * surface walk (prompt-and-requests.md §4–8, §10).
 */
export interface PromptAnalysis {
  /** Where the effective prompt comes from (§5.4). */
  systemPromptSource: 'header' | 'system-message';
  systemPrompt: SystemPromptTimeline;
  runtimeContext: RuntimeContextStream;
  requests: RequestList;
  /** Every §10 finding, in seq order. */
  findings: PromptFinding[];
}

/** rc.8, and mid logs that never logged a system/message, keep the prompt in the header (§3, §5.4). */
function promptInHeader(session: SessionFold): boolean {
  if (session.read.dialect === 'v0') return true;
  return !session.events.some((e) => e.type === 'system/message')
    && session.events.some((e) => e.type === 'request/header' && e.data?.header?.system !== undefined);
}

/** The analysis as visitors, so a caller that already walks the surface (the replay index) can carry it. */
export interface PromptAnalysisRun {
  visitors: SurfaceVisitor[];
  /** Completes the analysis with the surface after the last event. */
  finish(finalState: SurfaceState): PromptAnalysis;
}

export function startPromptAnalysis(session: SessionFold, limits: DiffLimits = {}): PromptAnalysisRun {
  const fromHeader = promptInHeader(session);
  const systemPrompt = new SystemPromptTimeline(fromHeader);
  const runtimeContext = new RuntimeContextStream(session.read.dialect === 'v4', limits);
  const builder = new RequestBuilder(session);
  return {
    visitors: [builder, systemPrompt, runtimeContext],
    finish(finalState) {
      runtimeContext.finish(finalState);
      const requests = builder.finish();
      const failures = findPromptFailures(session.events).map((f) => finding('prompt.failure', `turn ${f.turn} ended on a prompt error (${f.kind}): ${f.message}`, f.seq));
      const findings = [...requests.findings, ...systemPrompt.findings, ...runtimeContext.findings, ...failures]
        .sort((a, b) => (a.seq ?? -1) - (b.seq ?? -1));
      return { systemPromptSource: fromHeader ? 'header' : 'system-message', systemPrompt, runtimeContext, requests, findings };
    },
  };
}

export function analyzePrompts(session: SessionFold, limits: DiffLimits = {}): PromptAnalysis {
  const run = startPromptAnalysis(session, limits);
  return run.finish(walkSurface(session.events, session.read.dialect, run.visitors));
}

/** The per-call fields `inspect --json` prints: reference fields plus the analysis ones. */
export interface InspectedRequest {
  cut: number;
  turn: number;
  step: number;
  attempt: number;
  messageCount: number;
  messages: ModelRequest['messages'];
  header: ModelRequest['header'];
  config: ModelRequest['config'];
  toolNames: string[];
  toolsScrubbed: boolean;
  hash: string;
  usage?: ModelRequest['usage'];
  outcome?: string;
  prefix: ModelRequest['prefix'];
}

export function inspectRequests(list: RequestList): InspectedRequest[] {
  return list.requests.map((r) => {
    const out: InspectedRequest = {
      cut: r.cut, turn: r.turn, step: r.step, attempt: r.attempt,
      messageCount: r.messageCount, messages: r.messages, header: r.header,
      config: r.config, toolNames: r.tools.names, toolsScrubbed: r.tools.scrubbed,
      hash: r.hash, prefix: r.prefix,
    };
    if (r.usage) out.usage = r.usage;
    if (r.outcome) out.outcome = r.outcome;
    return out;
  });
}
