// `dsh-devtools summary <dir> [--ndjson] [--fail-on-refused]` (docs/sessions-folder.md):
// one summary per file of a sessions folder, read by content, for CI and
// databases (DuckDB reads the NDJSON as it is).
import fs from 'node:fs';
import path from 'node:path';
import { summarizeLog, type LogSummary } from '../../core/folder/summary.ts';
import { summaryRecord } from '../../core/folder/record.ts';
import { UsageError } from '../errors.ts';
import type { CliCommand } from '../registry.ts';
import { progress } from '../tty.ts';

const USAGE = 'summary <dir|log> [--ndjson] [--fail-on-refused]';

export const summaryCommand: CliCommand = {
  name: 'summary',
  summary: 'One line per log of a folder (recursive, logs told by content): id, title, format, events, turns, calls, models, tokens, findings, verdict.',
  usage: USAGE,
  help: `
Every file under the folder is read (plain, zstd or gzip; hidden folders are
skipped); a file that is not a DSH log is listed with "isLog": false and why.
Each log is read in one streaming pass that keeps neither its bytes nor its
events. With --ndjson, one JSON object per line, in path order, with the
fields file, id, title, format, events, turns, calls, models, tokens,
findings, ok, verdict, parentSession and the rest of the sessions table
(size, createdAt, lastEventAt, modelUse, cost, compactions, lastTurn, fork).
"cost" is null until a price table exists.

  --ndjson           one JSON line per file on stdout (else a short table)
  --fail-on-refused  exit 1 when DSH would refuse any of the logs (files that are not logs do not count)

example: npm run inspect -- summary ~/.dsh/sessions --ndjson > sessions.ndjson`,
  flags: { ndjson: { type: 'boolean' }, 'fail-on-refused': { type: 'boolean' } },
  async run({ values, positionals }) {
    if (positionals.length !== 1) throw new UsageError(`give one folder; usage: dsh-devtools ${USAGE}`);
    const root = positionals[0];
    let stat: fs.Stats;
    try {
      stat = fs.statSync(root);
    } catch {
      throw new Error(`cannot read ${root}`);
    }
    const files = stat.isDirectory() ? filesUnder(root) : [path.basename(root)];
    const base = stat.isDirectory() ? root : path.dirname(root);
    const shown = progress('summary');
    let refused = 0;
    const rows: LogSummary[] = [];
    try {
      for (let i = 0; i < files.length; i++) {
        shown.update(`${i} of ${files.length} files`, i / files.length);
        const row = await summarizeFile(path.join(base, files[i]), files[i]);
        if (row.isLog && !row.ok) refused++;
        if (values.ndjson) process.stdout.write(JSON.stringify(summaryRecord(row)) + '\n');
        else rows.push(row);
      }
    } finally {
      shown.done();
    }
    if (!values.ndjson) process.stdout.write(table(rows));
    return values['fail-on-refused'] && refused > 0 ? 1 : 0;
  },
};

/** Every regular file under `dir` (relative, forward slashes, sorted); hidden folders and symlinked folders are not entered. */
export function filesUnder(dir: string, prefix = ''): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(dir, prefix), { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const d of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const rel = prefix ? `${prefix}/${d.name}` : d.name;
    if (d.isFile()) out.push(rel);
    else if (d.isDirectory() && !d.name.startsWith('.')) out.push(...filesUnder(dir, rel));
  }
  return out;
}

async function summarizeFile(file: string, rel: string): Promise<LogSummary> {
  const size = fs.statSync(file).size;
  try {
    return await summarizeLog(() => fs.createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Uint8Array>, { file: rel, size });
  } catch (err) {
    // An unreadable file is a row that says so, never the end of the run.
    return unreadableSummary(rel, size, err instanceof Error ? err.message : String(err));
  }
}

function unreadableSummary(file: string, size: number, reason: string): LogSummary {
  return {
    file, size, isLog: false, notLog: `cannot read: ${reason}`, id: null, title: null, format: null, encoding: 'plain',
    createdAt: null, lastEventAt: null, events: 0, turns: 0, calls: 0, models: [], tokens: { in: 0, out: 0, cacheReads: 0 },
    modelUse: [], cost: null, compactions: 0, findings: { errors: 0, warnings: 0, infos: 0 }, ok: false, verdict: 'not-dsh',
    verdictSummary: reason, lastTurn: null, parentSession: null, fork: false, tornTail: false,
  };
}

function table(rows: readonly LogSummary[]): string {
  const head = ['file', 'verdict', 'events', 'turns', 'calls', 'tokens in/out', 'models'];
  const body = rows.map((r) => r.isLog
    ? [r.file, r.verdict, String(r.events), String(r.turns), String(r.calls), `${r.tokens.in}/${r.tokens.out}`, r.models.join(', ')]
    : [r.file, 'not a log', '', '', '', '', r.notLog ?? '']);
  const all = [head, ...body];
  const widths = head.map((_, c) => Math.max(...all.map((r) => r[c].length)));
  const logs = rows.filter((r) => r.isLog).length;
  return all.map((r) => r.map((v, c) => v.padEnd(widths[c])).join('  ').trimEnd()).join('\n') + `\n\n${logs} logs, ${rows.length - logs} other files\n`;
}
