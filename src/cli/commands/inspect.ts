// `dsh-devtools inspect <log> [--json] [--at SEQ] [--stream] [--fail-on-refused]`:
// the harness core's results for one log, for CI, tests and users without a
// browser. A big log (or --stream) is loaded in one streaming pass, so any
// size the machine can hold works.
import fs from 'node:fs';
import v8 from 'node:v8';
import { inspect, inspectSession, type Inspection } from '../../core/inspect.ts';
import type { ReadProgress } from '../../core/log/reader.ts';
import { wholeNumber, type ParsedArgs } from '../args.ts';
import { followFile } from '../follow/follow-file.ts';
import { writeJson } from '../json-out.ts';
import { UsageError } from '../errors.ts';
import { loadLogFile, readLogFile, shouldStream } from '../node-source.ts';
import type { CliCommand } from '../registry.ts';
import { painter, progress, type Paint } from '../tty.ts';

const USAGE = 'inspect <log.jsonl|.zst|.gz> [--json [--brief-calls]] [--at SEQ] [--stream] [--fail-on-refused] [--follow --ndjson [--interval MS]]';

export const inspectCommand: CliCommand = {
  name: 'inspect',
  summary: "The core's results for one log in the terminal: format, verdict, surface, requests, diagnostics.",
  usage: USAGE,
  help: `
The log may be plain JSONL, zstd or gzip (told apart by content). Output is
text for people, or one JSON document with --json (the same fields the tests
compare). Progress goes to stderr, and only when it is a terminal.

  --json             print the results as JSON on stdout
  --brief-calls      with --json, each model call without its messages and hash (its
                     messageCount, header, config, tools and prefix stay): every call
                     lists its whole context otherwise, which on a long session that
                     is never compacted makes the document grow with the square of it
  --at SEQ           the surface, messages, projections and prompt as of that seq
  --stream           load in one streaming pass (chosen by itself for logs too big to hold as objects)
  --fail-on-refused  exit 1 when DSH would refuse to restore the log (verdict dsh-refuses)
  --follow --ndjson  follow a log that is still being written, like tail -f: one JSON line
                     after each batch of newly committed events, {"events", "lastSeq",
                     "nodes", "pending", "findings"} (pending: bytes of a line still
                     waiting for its newline); a file that shrinks or is replaced by
                     another log is read again from its start ({"reopened": …}). Ctrl-C
                     (SIGINT) or SIGTERM ends the input: a last line with "final": true
                     gives the whole log as a load would (torn tail, restore), exit 0
  --interval MS      how often --follow looks at the file (default 500)

exit: 0 the log was read (whatever its findings), 1 an error or, with
--fail-on-refused, a log DSH refuses; 2 a usage mistake.

example: dsh-devtools inspect session.jsonl --json --at 120`,
  flags: {
    json: { type: 'boolean' },
    'brief-calls': { type: 'boolean' },
    at: { type: 'string' },
    stream: { type: 'boolean' },
    'fail-on-refused': { type: 'boolean' },
    follow: { type: 'boolean' },
    ndjson: { type: 'boolean' },
    interval: { type: 'string' },
  },
  async run({ values, positionals }) {
    const usage = `dsh-devtools ${USAGE}`;
    const at = wholeNumber(values.at, 'at', usage);
    if (positionals.length !== 1) throw new UsageError(`give one log file; usage: ${usage}`);
    if (values['brief-calls'] && !values.json) throw new UsageError(`--brief-calls shapes the JSON document: give --json too; usage: ${usage}`);
    const file = positionals[0];
    try {
      fs.accessSync(file, fs.constants.R_OK);
    } catch {
      throw new Error(`cannot read ${file}`);
    }
    const stat = fs.statSync(file);
    if (stat.isDirectory()) throw new Error(`${file} is a folder; give one log file`);
    if (values.follow || values.ndjson) return follow(file, values, usage);

    const shown = progress('inspect');
    const onProgress = (p: ReadProgress) => shown.update(`read ${megabytes(p.bytesIn)} of ${megabytes(stat.size)}, ${p.events} events`, stat.size ? p.bytesIn / stat.size : undefined);
    const stream = values.stream === true || shouldStream(file, v8.getHeapStatistics().heap_size_limit);
    let result: Inspection;
    try {
      // The text report reads no call's messages: they are derived only when the JSON document is written.
      const options = { at, briefCalls: values['brief-calls'] === true };
      result = stream ? inspectSession(await loadLogFile(file, onProgress), options) : inspect(await readLogFile(file, onProgress), options);
    } finally {
      shown.done();
    }
    if (values.json) {
      // In pieces: a long session's document (every call with its context) is longer than one string may be.
      await writeJson(result, process.stdout);
      process.stdout.write('\n');
    }
    else process.stdout.write(describe(file, result, painter(process.stdout)));
    return values['fail-on-refused'] && !result.ok ? 1 : 0;
  },
};

/** `--follow --ndjson`: the log followed until SIGINT/SIGTERM (docs/follow.md). */
async function follow(file: string, values: ParsedArgs['values'], usage: string): Promise<number> {
  if (!values.follow || !values.ndjson) throw new UsageError(`--follow prints JSON lines: give both --follow and --ndjson; usage: ${usage}`);
  if (values.json || values.at !== undefined || values.stream || values['fail-on-refused']) throw new UsageError(`--follow takes no --json, --at, --stream or --fail-on-refused; usage: ${usage}`);
  const interval = wholeNumber(values.interval, 'interval', usage) ?? 500;
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await followFile(file, Math.max(10, interval), stop.signal, (line) => process.stdout.write(JSON.stringify(line) + '\n'));
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return 0;
}

const megabytes = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

function describe(file: string, result: Inspection, paint: Paint): string {
  const verdictColour = result.verdict === 'ok' ? 'green' : result.verdict === 'newer-than-app' ? 'yellow' : 'red';
  const severityColour = (s: string) => (s === 'error' ? 'red' : s === 'warning' ? 'yellow' : 'dim');
  const lines = [
    paint('bold', file),
    `format    v${result.format.version} (${result.format.dialect} rules, ${result.format.encoding})`,
    `session   ${result.header?.id ?? '(no header)'}  cwd ${result.header?.cwd ?? '-'}`,
    `events    ${result.eventCount} (last seq ${result.lastSeq})${result.tornTail ? `, torn tail ${result.tornTailDetail?.bytes} bytes` : ''}`,
    `verdict   ${paint(verdictColour, result.verdict)}: ${result.verdictDetail.summary}`,
    `restore   ${result.ok ? 'no finding DSH refuses' : 'DSH would refuse this log'}${result.synthetic.length ? `; the restore appends ${result.synthetic.map((e) => e.type).join(', ')}` : ''}`,
    `surface   at seq ${result.asOfSeq}: ${result.surface.nodes.length} nodes, ${result.messages.length} messages, replaceGeneration ${result.surface.replaceGeneration}, contentGeneration ${result.surface.contentGeneration}`,
    `requests  ${result.requests.length} model calls; ${result.runtimeContext.snapshots.length} runtime-context snapshots`,
    '',
    'events by type:',
    ...Object.entries(result.eventTypeCounts).sort((a, b) => b[1] - a[1]).map(([t, n]) => `  ${String(n).padStart(7)}  ${t}`),
    '',
    `diagnostics (${result.diagnostics.length}):`,
    ...result.diagnostics.map((d) => `  ${paint(severityColour(d.severity), d.severity.padEnd(7))} ${d.code.padEnd(24)} ${d.line ? `line ${d.line} ` : ''}${d.message}`),
  ];
  return lines.join('\n') + '\n';
}
