// `dsh-devtools summary <dir> [--ndjson] [--fail-on-refused]` (docs/sessions-folder.md):
// one summary per file of a sessions folder, read by content, for CI and
// databases (DuckDB reads the NDJSON as it is). A session's generations
// (dsh-log-rules L1.2) are one session: its latest row, the older ones under it.
import fs from 'node:fs';
import path from 'node:path';
import { generationGroups, generationIndex } from '../../core/folder/generations.ts';
import { summarizeLog, type LogSummary } from '../../core/folder/summary.ts';
import { generationFields, summaryRecord, type GenerationFields } from '../../core/folder/record.ts';
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
events. With --ndjson, one JSON object per line, in path order (a session's older generations right after its latest), with the
fields file, id, title, format, events, turns, calls, models, tokens,
findings, ok, verdict, parentSession, then generation, latest,
olderGenerations, generationFindings, then the rest of the sessions table
(size, createdAt, lastEventAt, modelUse, cost, compactions, lastTurn, fork).
"cost" is null until a price table exists.

A session directory may hold several generations (session.jsonl[.zstd] is
0, session.v<N>.jsonl[.zstd] is N): DSH reads the highest. Its row has
"latest": true and lists the others in "olderGenerations"; each older one
follows it directly with "latest": false. The table shows one row per
session, its older generations noted. A directory mixing .jsonl and
.jsonl.zstd generations, which DSH refuses, counts as refused.

  --ndjson           one JSON line per file on stdout (else a short table)
  --fail-on-refused  exit 1 when DSH would refuse any of the logs, or a session directory's mix of
                     generations (files that are not logs do not count)

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
    const generations = generationIndex(files);
    let refused = 0;
    let read = 0;
    const rows: SessionRow[] = [];
    try {
      // A session's generations are read together, so its latest row can say what they hold.
      for (const group of generationGroups(files, generations)) {
        const summaries: LogSummary[] = [];
        for (const rel of group) {
          shown.update(`${read} of ${files.length} files`, read / files.length);
          summaries.push(await summarizeFile(path.join(base, rel), rel));
          read++;
        }
        const formatOf = new Map(summaries.map((r) => [r.file, r.isLog ? r.format : null]));
        for (const row of summaries) {
          const fields = generationFields(generations, row.file, (f) => formatOf.get(f));
          if ((row.isLog && !row.ok) || fields.generationFindings.some((f) => f.refuses)) refused++;
          if (values.ndjson) process.stdout.write(JSON.stringify(summaryRecord(row, fields)) + '\n');
          else if (fields.latest) rows.push({ summary: row, generations: fields });
        }
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

/** A table row: a session's latest generation (or a file of its own) and what its generations hold. */
interface SessionRow {
  summary: LogSummary;
  generations: GenerationFields;
}

function table(rows: readonly SessionRow[]): string {
  const head = ['file', 'verdict', 'events', 'turns', 'calls', 'tokens in/out', 'models', 'older generations'];
  const body = rows.map(({ summary: r, generations: g }) => {
    const older = g.olderGenerations.map((o) => `v${o.generation}`).join(', ');
    return r.isLog
      ? [r.file, r.verdict, String(r.events), String(r.turns), String(r.calls), `${r.tokens.in}/${r.tokens.out}`, r.models.join(', '), older]
      : [r.file, 'not a log', '', '', '', '', r.notLog ?? '', older];
  });
  const all = [head, ...body];
  const widths = head.map((_, c) => Math.max(...all.map((r) => r[c].length)));
  const logs = rows.filter((r) => r.summary.isLog).length;
  const older = rows.reduce((n, r) => n + r.generations.olderGenerations.length, 0);
  // The older generations are infos the column already shows; what else their files say is listed.
  const notes = rows.flatMap((r) => r.generations.generationFindings.filter((f) => f.severity !== 'info').map((f) => `${f.severity}: ${f.message}\n`));
  return all.map((r) => r.map((v, c) => v.padEnd(widths[c])).join('  ').trimEnd()).join('\n')
    + `\n\n${notes.join('')}${notes.length ? '\n' : ''}${logs} logs${older ? ` (and ${older} older generation${older === 1 ? '' : 's'})` : ''}, ${rows.length - logs} other files\n`;
}
