// `dsh-devtools inspect <log> [--json] [--at SEQ] [--stream] [--fail-on-refused]`:
// the harness core's results for one log, for CI, tests and users without a
// browser. A big log (or --stream) is loaded in one streaming pass, so any
// size the machine can hold works.
import fs from 'node:fs';
import v8 from 'node:v8';
import { inspect, inspectSession, type Inspection } from '../../core/inspect.ts';
import type { ReadProgress } from '../../core/log/reader.ts';
import { wholeNumber } from '../args.ts';
import { UsageError } from '../errors.ts';
import { loadLogFile, readLogFile, shouldStream } from '../node-source.ts';
import type { CliCommand } from '../registry.ts';
import { painter, progress, type Paint } from '../tty.ts';

const USAGE = 'inspect <log.jsonl|.zst|.gz> [--json] [--at SEQ] [--stream] [--fail-on-refused]';

export const inspectCommand: CliCommand = {
  name: 'inspect',
  summary: "The core's results for one log in the terminal: format, verdict, surface, requests, diagnostics.",
  usage: USAGE,
  help: `
The log may be plain JSONL, zstd or gzip (told apart by content). Output is
text for people, or one JSON document with --json (the same fields the tests
compare). Progress goes to stderr, and only when it is a terminal.

  --json             print the results as JSON on stdout
  --at SEQ           the surface, messages, projections and prompt as of that seq
  --stream           load in one streaming pass (chosen by itself for logs too big to hold as objects)
  --fail-on-refused  exit 1 when DSH would refuse to restore the log (verdict dsh-refuses)

exit: 0 the log was read (whatever its findings), 1 an error or, with
--fail-on-refused, a log DSH refuses; 2 a usage mistake.

example: dsh-devtools inspect session.jsonl --json --at 120`,
  flags: {
    json: { type: 'boolean' },
    at: { type: 'string' },
    stream: { type: 'boolean' },
    'fail-on-refused': { type: 'boolean' },
  },
  async run({ values, positionals }) {
    const usage = `dsh-devtools ${USAGE}`;
    const at = wholeNumber(values.at, 'at', usage);
    if (positionals.length !== 1) throw new UsageError(`give one log file; usage: ${usage}`);
    const file = positionals[0];
    try {
      fs.accessSync(file, fs.constants.R_OK);
    } catch {
      throw new Error(`cannot read ${file}`);
    }
    const stat = fs.statSync(file);
    if (stat.isDirectory()) throw new Error(`${file} is a folder; give one log file`);

    const shown = progress('inspect');
    const onProgress = (p: ReadProgress) => shown.update(`read ${megabytes(p.bytesIn)} of ${megabytes(stat.size)}, ${p.events} events`, stat.size ? p.bytesIn / stat.size : undefined);
    const stream = values.stream === true || shouldStream(file, v8.getHeapStatistics().heap_size_limit);
    let result: Inspection;
    try {
      result = stream ? inspectSession(await loadLogFile(file, onProgress), { at }) : inspect(await readLogFile(file, onProgress), { at });
    } finally {
      shown.done();
    }
    if (values.json) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    else process.stdout.write(describe(file, result, painter(process.stdout)));
    return values['fail-on-refused'] && !result.ok ? 1 : 0;
  },
};

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
