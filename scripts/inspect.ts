// `npm run inspect -- <log> [--json]`: the harness core's results for one
// log, for CI, tests and users without a browser.
import fs from 'node:fs';
import { inspect } from '../src/core/inspect.ts';
import { readLogFile } from './node-source.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const file = args.find((a) => !a.startsWith('--'));
if (!file) {
  console.error('usage: npm run inspect -- <log.jsonl|.zst|.gz> [--json]');
  process.exit(2);
}
try {
  fs.accessSync(file, fs.constants.R_OK);
} catch {
  console.error(`inspect: cannot read ${file}`);
  process.exit(1);
}

const result = inspect(await readLogFile(file));
if (json) {
  process.stdout.write(JSON.stringify(result, null, 2) + '\n');
} else {
  const lines = [
    `${file}`,
    `format    v${result.format.version} (${result.format.dialect} rules, ${result.format.encoding})`,
    `session   ${result.header?.id ?? '(no header)'}  cwd ${result.header?.cwd ?? '-'}`,
    `events    ${result.eventCount} (last seq ${result.lastSeq ?? '-'})${result.tornTail ? `, torn tail ${result.tornTailDetail?.bytes} bytes` : ''}`,
    '',
    'events by type:',
    ...Object.entries(result.eventTypeCounts).sort((a, b) => b[1] - a[1]).map(([t, n]) => `  ${String(n).padStart(7)}  ${t}`),
    '',
    `diagnostics (${result.diagnostics.length}):`,
    ...result.diagnostics.map((d) => `  ${d.severity.padEnd(7)} ${d.code.padEnd(24)} ${d.line ? `line ${d.line} ` : ''}${d.message}`),
  ];
  process.stdout.write(lines.join('\n') + '\n');
}
