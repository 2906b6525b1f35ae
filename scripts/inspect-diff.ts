// `npm run inspect -- diff A B [--json]`: two logs compared call by call
// (issue #20), through the same reader, fold and request analysis as inspect.
import fs from 'node:fs';
import path from 'node:path';
import { compareRuns } from '../src/core/compare/compare.ts';
import { diffDocument, diffText } from '../src/core/compare/report.ts';
import { loadRun } from '../src/core/compare/run.ts';
import { UsageError } from './cli.ts';
import { readLogFile } from './node-source.ts';

/** The subcommand on its arguments; errors are thrown for runCli to print (whether or not the logs differ is not an error). */
export async function diffCommand(args: string[]): Promise<void> {
  const json = args.includes('--json');
  const files = args.filter((a) => !a.startsWith('--'));
  if (files.length !== 2 || args.some((a) => a.startsWith('--') && a !== '--json' && a !== '--debug')) {
    throw new UsageError('usage: npm run inspect -- diff <A.jsonl|.zst|.gz> <B.jsonl|.zst|.gz> [--json] [--debug]');
  }
  for (const file of files) {
    try {
      fs.accessSync(file, fs.constants.R_OK);
    } catch {
      throw new Error(`cannot read ${file}`);
    }
    if (fs.statSync(file).isDirectory()) throw new Error(`${file} is a folder; give one log file`);
  }
  // A file that is not a log still reads (as "not a DSH log"): the report says what can be compared.
  const [a, b] = await Promise.all(files.map(async (f) => loadRun(await readLogFile(f), path.basename(f))));
  const report = compareRuns(a.run, b.run);
  process.stdout.write(json ? JSON.stringify(diffDocument(report), null, 2) + '\n' : diffText(report, { a: files[0], b: files[1] }) + '\n');
}
