// `dsh-devtools export-otlp LOG --out trace.jsonl | --endpoint URL`: the session as an OpenTelemetry trace.
import fs from 'node:fs';
import { redactSecrets } from '../../core/export/redact.ts';
import { traceJsonLines, traceRequests } from '../../core/otlp/requests.ts';
import { SEMCONV_VERSION } from '../../core/otlp/semconv.ts';
import { sessionTrace } from '../../core/otlp/session-trace.ts';
import { traceSourceOf } from '../../core/otlp/source.ts';
import { list, text } from '../args.ts';
import { UsageError } from '../errors.ts';
import { loadedLogFile } from '../loaded-log.ts';
import { packageInfo } from '../package-root.ts';
import type { CliCommand } from '../registry.ts';

const USAGE = 'export-otlp <log> (--out FILE | --endpoint URL [--header K=V]...) [--content [--full-input]] [--raw]';

export const exportOtlpCommand: CliCommand = {
  name: 'export-otlp',
  summary: 'The session as an OpenTelemetry trace (OTLP/JSON), for Jaeger, Langfuse, Phoenix or any collector.',
  usage: USAGE,
  help: `
A trace per session (trace id from the session id: the same log exports the
same trace): an invoke_agent root span, a span per turn, a "chat {model}" span
per model call (provider, models, tokens with cache reads and writes, finish
reason) and an "execute_tool {name}" span per tool call, following the GenAI
semantic conventions ${SEMCONV_VERSION}, with OpenInference's attribute names beside
them; compactions and tool-result prunes are span events; a subagent is a
child invoke_agent span, linked to its own log's trace.

  --out FILE        write OTLP/JSON as the file exporter does: one
                    ExportTraceServiceRequest a line
  --endpoint URL    POST each request as OTLP/HTTP JSON instead (a collector's
                    traces URL, e.g. http://127.0.0.1:4318/v1/traces)
  --header K=V      a header for --endpoint (repeat it: an auth token, a tenant)
  --content         add message content, tool arguments and results, system
                    instructions (secrets redacted as the other exports redact them)
  --full-input      with --content, each chat span carries its whole input, not
                    only what it added after the call before's cached prefix
  --raw             with --content, no redaction

example: dsh-devtools export-otlp session.jsonl --out trace.jsonl`,
  flags: {
    out: { type: 'string' }, endpoint: { type: 'string' }, header: { type: 'string', multiple: true },
    content: { type: 'boolean' }, 'full-input': { type: 'boolean' }, raw: { type: 'boolean' },
  },
  async run({ values, positionals }) {
    const usage = `dsh-devtools ${USAGE}`;
    const out = text(values.out);
    const endpoint = text(values.endpoint);
    const headers = list(values.header);
    if (positionals.length !== 1) throw new UsageError(`give one log file; usage: ${usage}`);
    if (!out === !endpoint) throw new UsageError(`give --out or --endpoint (one of them); usage: ${usage}`);
    if (headers.length && !endpoint) throw new UsageError(`--header goes with --endpoint; usage: ${usage}`);
    if ((values['full-input'] || values.raw) && !values.content) throw new UsageError(`--full-input and --raw shape the content: give --content too; usage: ${usage}`);
    const sendHeaders: Record<string, string> = { 'content-type': 'application/json' };
    for (const h of headers) {
      const at = h.indexOf('=');
      if (at <= 0) throw new UsageError(`--header needs K=V, got ${JSON.stringify(h)}; usage: ${usage}`);
      sendHeaders[h.slice(0, at).trim().toLowerCase()] = h.slice(at + 1);
    }
    if (endpoint && !/^https?:\/\//i.test(endpoint)) throw new UsageError(`--endpoint needs an http(s) URL, got ${JSON.stringify(endpoint)}; usage: ${usage}`);

    const { loaded } = await loadedLogFile(positionals[0]);
    let redactions = 0;
    const redact = values.raw ? (t: string) => t : (t: string) => { const r = redactSecrets(t); redactions += r.count; return r.text; };
    const trace = sessionTrace(traceSourceOf(loaded), { content: values.content === true, fullInput: values['full-input'] === true, redact, version: packageInfo().version });
    const c = trace.counts;
    const summary = `trace ${trace.traceId}: ${trace.spans.length} spans (${c.turns} turns, ${c.calls} model calls, ${c.tools} tool calls, ${c.agents} subagents, ${c.replaces} replaces)${values.content ? `, ${redactions} secret${redactions === 1 ? '' : 's'} redacted` : ''}`;
    if (out) {
      fs.writeFileSync(out, traceJsonLines(trace));
      process.stderr.write(`${summary} → ${out}\n`);
      return;
    }
    const requests = traceRequests(trace);
    for (const [i, request] of requests.entries()) {
      const res = await fetch(endpoint!, { method: 'POST', headers: sendHeaders, body: JSON.stringify(request) });
      const reply = await res.text();
      if (!res.ok) throw new Error(`${endpoint} answered ${res.status} ${res.statusText} to request ${i + 1} of ${requests.length}${reply ? `: ${reply.slice(0, 300)}` : ''}`);
      // A collector that took only part of a request says so in an ExportTraceServiceResponse.
      const partial = parsePartial(reply);
      if (partial) process.stderr.write(`warning: ${endpoint} rejected ${partial.rejectedSpans} span(s) of request ${i + 1}${partial.errorMessage ? `: ${partial.errorMessage}` : ''}\n`);
    }
    process.stderr.write(`${summary} → ${endpoint} in ${requests.length} request${requests.length === 1 ? '' : 's'}\n`);
  },
};

function parsePartial(reply: string): { rejectedSpans: string; errorMessage?: string } | null {
  try {
    const p = JSON.parse(reply)?.partialSuccess;
    return p && Number(p.rejectedSpans) > 0 ? { rejectedSpans: String(p.rejectedSpans), errorMessage: p.errorMessage } : null;
  } catch {
    return null;
  }
}
