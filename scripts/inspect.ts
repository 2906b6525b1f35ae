// `npm run inspect -- <log> [--json]`: the harness core's results for one
// log, for CI, tests and users without a browser.
import fs from 'node:fs';
import { inspect } from '../src/core/inspect.ts';
import { readLogFile } from './node-source.ts';
import { diffCommand } from './inspect-diff.ts';

const args = process.argv.slice(2);
// `inspect diff A B`: two logs compared (issue #20).
if (args[0] === 'diff') process.exit(await diffCommand(args.slice(1)));
const json = args.includes('--json');
const atFlag = args.indexOf('--at');
const at = atFlag >= 0 ? Number(args[atFlag + 1]) : undefined;
const file = args.find((a, i) => !a.startsWith('--') && (atFlag < 0 || i !== atFlag + 1));
if (!file || (at !== undefined && !Number.isSafeInteger(at))) {
  console.error('usage: npm run inspect -- <log.jsonl|.zst|.gz> [--json] [--at SEQ]');
  process.exit(2);
}
try {
  fs.accessSync(file, fs.constants.R_OK);
} catch {
  console.error(`inspect: cannot read ${file}`);
  process.exit(1);
}

const result = inspect(await readLogFile(file), { at });
if (json) {
  process.stdout.write(JSON.stringify(result, null, 2) + '\n');
} else {
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
}
