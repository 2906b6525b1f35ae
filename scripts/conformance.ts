// `npm run conformance -- <logsDir> <expectedDir>`: the core against reference
// results computed by DSH, field by field. One line per failing log, then
// `conformance: N passed, M failed`; exit 1 when any failed.
import fs from 'node:fs';
import path from 'node:path';
import { compareWithReference, firstDifference } from './conformance-lib.ts';
import { readLogFile } from './node-source.ts';
import { debugRequested, errorLine, installCliErrors } from './cli.ts';

installCliErrors('conformance');

// `--corpus` reads the real-log corpus in place: DSH_CORPUS, default ../shared/corpus.
const args = process.argv.slice(2);
const corpus = path.resolve(process.env.DSH_CORPUS ?? '../shared/corpus');
const [logsDir, expectedDir] = args.includes('--corpus') ? [path.join(corpus, 'dsh'), path.join(corpus, 'expected')] : args;
if (!logsDir || !expectedDir) {
  console.error('usage: npm run conformance -- <logsDir> <expectedDir>');
  process.exit(2);
}
for (const dir of [logsDir, expectedDir]) {
  if (!fs.existsSync(dir)) {
    console.error(`conformance: directory not found: ${dir}${args.includes('--corpus') ? ' (set DSH_CORPUS to the corpus directory)' : ''}`);
    process.exit(2);
  }
}

const short = (v: unknown) => { const s = JSON.stringify(v); return s && s.length > 300 ? s.slice(0, 300) + '…' : s; };
let passed = 0;
let failed = 0;
for (const file of fs.readdirSync(expectedDir).filter((f) => f.endsWith('.json')).sort()) {
  const name = file.replace(/\.json$/, '');
  const log = path.join(logsDir, `${name}.jsonl`);
  if (!fs.existsSync(log)) continue;
  const ref = JSON.parse(fs.readFileSync(path.join(expectedDir, file), 'utf8'));
  try {
    const { mismatches } = compareWithReference(await readLogFile(log), ref);
    if (mismatches.length === 0) { passed++; continue; }
    failed++;
    const m = mismatches[0];
    const inner = firstDifference(m.expected, m.actual);
    console.log(`FAIL ${name}: ${m.path}${inner} expected ${short(m.expected)} got ${short(m.actual)}${mismatches.length > 1 ? ` (+${mismatches.length - 1} more)` : ''}`);
  } catch (err) {
    failed++;
    console.log(`FAIL ${errorLine(name, err)}`);
    if (debugRequested()) console.error((err as Error).stack);
  }
}
console.log(`conformance: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
