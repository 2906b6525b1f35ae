import { messagesToMarkdown } from '../../core/export/markdown.ts';
import { redactSecrets } from '../../core/export/redact.ts';
import type { EventStore } from '../../core/log/event-store.ts';
import { deriveEventMessage, deriveMessages } from '../../core/messages/derive.ts';
import type { Replay } from '../../core/replay/replay-index.ts';
import type { ExportResult, ExportWhat } from '../protocol.ts';
import type { CallsService } from './calls.ts';
import type { CursorService } from './cursor.ts';
import { compareRunOf } from '../../core/compare/run.ts';
import { logStem } from '../../core/log/log-name.ts';
import { traceJsonLines } from '../../core/otlp/requests.ts';
import { sessionTrace, type TraceSource } from '../../core/otlp/session-trace.ts';
import type { ToolPairs } from '../../core/replay/tool-pairs.ts';
import type { TurnOutcome } from '../../core/session/turn-outcomes.ts';
import { version as APP_VERSION } from '../../../package.json';

/**
 * The Export menu's files: the request, the surface or the transcript at a
 * cursor, as JSON or Markdown, secrets redacted unless asked not to. An
 * export is asked for once: the whole list, not a window, and only the
 * format asked for is made (on a long log each is a pass over tens of
 * thousands of messages).
 */
export class ExportService {
  constructor(
    private readonly replay: Replay<EventStore>,
    private readonly cursor: CursorService,
    private readonly calls: CallsService,
    /** What the trace export reads besides: the log's name, its tool pairs and turns. */
    private readonly traced: { name: string; pairs: ToolPairs; turnOutcomes: readonly TurnOutcome[] },
  ) {}

  /** The session as an OpenTelemetry trace: OTLP/JSON, a request a line, as the file exporter writes it. */
  otlp(content: boolean, redact: boolean): ExportResult {
    let count = 0;
    const redactText = redact ? (t: string) => { const r = redactSecrets(t); count += r.count; return r.text; } : (t: string) => t;
    const { name, pairs, turnOutcomes } = this.traced;
    const source: TraceSource = {
      run: compareRunOf(name, this.replay, this.calls.list, turnOutcomes),
      pairs,
      loggedCount: this.replay.session.loggedCount,
      callMessages: this.calls.messagesInOrder(),
    };
    const text = traceJsonLines(sessionTrace(source, { content, redact: redactText, version: APP_VERSION }));
    return { fileName: `${logStem(name) || 'session'}.otlp.jsonl`, mime: 'application/x-ndjson', text, redactions: count };
  }

  export(what: ExportWhat, format: 'json' | 'markdown', index: number, redact: boolean): ExportResult {
    const { session } = this.replay;
    const { state } = this.replay.surfaceAt(index);
    const seq = session.events.at(index)?.seq ?? -1;
    const json = format === 'json';
    let raw: string;
    if (what === 'request') {
      const call = this.calls.callAtOrBefore(seq);
      if (!call) throw new Error(`no model call at or before seq ${seq}`);
      raw = json ? JSON.stringify(call.loopRequest, null, 2) : messagesToMarkdown(`Model call ${call.index + 1} (cut seq ${call.cut}, turn ${call.turn} step ${call.step})`, call.messages.map((message) => ({ message })));
    } else if (what === 'surface') {
      raw = json
        ? JSON.stringify({ seq, nodes: state.nodes, replaceGeneration: state.replaceGeneration, contentGeneration: state.contentGeneration, messages: deriveMessages(state, session.eventAt) }, null, 2)
        : messagesToMarkdown(`Model context at seq ${seq}`, state.nodes.map((n) => ({ seq: n, message: deriveEventMessage(session.eventAt(n)!, state.projected) })));
    } else {
      // The entries alone (no list view of each, which reads every event once more).
      const transcript = this.cursor.transcriptEntries(state, 0, this.cursor.transcriptCount(index));
      const entries = transcript.map((t) => ({ seq: t.seq, message: deriveEventMessage(session.eventAt(t.seq)!), note: t.status === 'shadowed' ? `later shadowed by seq ${t.shadowedBy}` : undefined }));
      raw = json ? JSON.stringify(entries, null, 2) : messagesToMarkdown(`Transcript up to seq ${seq}`, entries);
    }
    const { text, count } = redact ? redactSecrets(raw) : { text: raw, count: 0 };
    return { fileName: `${what}-at-seq-${seq}.${json ? 'json' : 'md'}`, mime: json ? 'application/json' : 'text/markdown', text, redactions: count };
  }
}
