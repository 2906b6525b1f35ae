// `npm run inspect -- <log> [--json] [--at SEQ] [--stream] [--debug]`: the
// harness core's results for one log, for CI, tests and users without a
// browser. A big log (or --stream) is loaded in one streaming pass, so any
// size the machine can hold works; errors are one line (--debug: the stack).
import fs from 'node:fs';
import v8 from 'node:v8';
import { inspect, inspectSession } from '../src/core/inspect.ts';
import { runCli, UsageError } from './cli.ts';
import { loadLogFile, readLogFile, shouldStream } from './node-source.ts';
import { diffCommand } from './inspect-diff.ts';

await runCli('inspect', async () => {
  const args = process.argv.slice(2);
  // `inspect diff A B`: two logs compared (issue #20).
  if (args[0] === 'diff') return diffCommand(args.slice(1));
  const json = args.includes('--json');
  const atFlag = args.indexOf('--at');
  const at = atFlag >= 0 ? Number(args[atFlag + 1]) : undefined;
  const file = args.find((a, i) => !a.startsWith('--') && (atFlag < 0 || i !== atFlag + 1));
  if (!file || (at !== undefined && !Number.isSafeInteger(at))) {
    throw new UsageError('usage: npm run inspect -- <log.jsonl|.zst|.gz> [--json] [--at SEQ] [--stream] [--debug]');
  }
  try {
    fs.accessSync(file, fs.constants.R_OK);
  } catch {
    throw new Error(`cannot read ${file}`);
  }
  if (fs.statSync(file).isDirectory()) throw new Error(`${file} is a folder; give one log file`);

  const stream = args.includes('--stream') || shouldStream(file, v8.getHeapStatistics().heap_size_limit);
  const result = stream ? inspectSession(await loadLogFile(file), { at }) : inspect(await readLogFile(file), { at });
  if (json) {
    process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    return;
  }
  const lines = [
    `${file}`,
    `format    v${result.format.version} (${result.format.dialect} rules, ${result.format.encoding})`,
    `session   ${result.header?.id ?? '(no header)'}  cwd ${result.header?.cwd ?? '-'}`,
    `events    ${result.eventCount} (last seq ${result.lastSeq})${result.tornTail ? `, torn tail ${result.tornTailDetail?.bytes} bytes` : ''}`,
    `verdict   ${result.verdict}: ${result.verdictDetail.summary}`,
    `restore   ${result.ok ? 'no finding DSH refuses' : 'DSH would refuse this log'}${result.synthetic.length ? `; the restore appends ${result.synthetic.map((e) => e.type).join(', ')}` : ''}`,
    `surface   at seq ${result.asOfSeq}: ${result.surface.nodes.length} nodes, ${result.messages.length} messages, replaceGeneration ${result.surface.replaceGeneration}, contentGeneration ${result.surface.contentGeneration}`,
    `requests  ${result.requests.length} model calls; ${result.runtimeContext.snapshots.length} runtime-context snapshots`,
    '',
    'events by type:',
    ...Object.entries(result.eventTypeCounts).sort((a, b) => b[1] - a[1]).map(([t, n]) => `  ${String(n).padStart(7)}  ${t}`),
    '',
    `diagnostics (${result.diagnostics.length}):`,
    ...result.diagnostics.map((d) => `  ${d.severity.padEnd(7)} ${d.code.padEnd(24)} ${d.line ? `line ${d.line} ` : ''}${d.message}`),
  ];
  process.stdout.write(lines.join('\n') + '\n');
});
