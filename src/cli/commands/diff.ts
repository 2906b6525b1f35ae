// `dsh-devtools diff A B [--json]`: two logs compared call by call (docs/compare.md),
// through the same reader, fold and request analysis as inspect.
import fs from 'node:fs';
import path from 'node:path';
import { compareRuns } from '../../core/compare/compare.ts';
import { diffDocument, diffText } from '../../core/compare/report.ts';
import { loadRun } from '../../core/compare/run.ts';
import { UsageError } from '../errors.ts';
import { readLogFile } from '../node-source.ts';
import type { CliCommand } from '../registry.ts';

const USAGE = 'diff <A.jsonl|.zst|.gz> <B.jsonl|.zst|.gz> [--json]';

export const diffCommand: CliCommand = {
  name: 'diff',
  summary: 'Two runs compared call by call: aligned calls, the first divergence and every later one, explained.',
  usage: USAGE,
  help: `
Calls are aligned by turn and step, then by request identity; a call only one
run made is a gap. JSON fields: identical, calls {a, b, aligned},
firstDivergence and divergences ({callA, callB, seqA, seqB, what, messageIndex?},
callA/callB 1-based), gaps, fork, notes, summary. Exit 0 whether or not the
logs differ: read "identical".

  --json         print the comparison as JSON on stdout

example: dsh-devtools diff before.jsonl after.jsonl --json`,
  flags: { json: { type: 'boolean' } },
  async run({ values, positionals }) {
    if (positionals.length !== 2) throw new UsageError(`usage: dsh-devtools ${USAGE}`);
    for (const file of positionals) {
      try {
        fs.accessSync(file, fs.constants.R_OK);
      } catch {
        throw new Error(`cannot read ${file}`);
      }
      if (fs.statSync(file).isDirectory()) throw new Error(`${file} is a folder; give one log file`);
    }
    // A file that is not a log still reads (as "not a DSH log"): the report says what can be compared.
    const [a, b] = await Promise.all(positionals.map(async (f) => loadRun(await readLogFile(f), path.basename(f))));
    const report = compareRuns(a.run, b.run);
    process.stdout.write(values.json === true ? JSON.stringify(diffDocument(report), null, 2) + '\n' : diffText(report, { a: positionals[0], b: positionals[1] }) + '\n');
  },
};
