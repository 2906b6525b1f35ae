// `dsh-devtools whatif LOG --edits EDITS.json [--json] [--out EDITED.jsonl]`: the log re-folded
// with the edits applied, compared call by call with the original (docs/whatif.md).
import fs from 'node:fs';
import path from 'node:path';
import { parseEdits } from '../../core/whatif/edits-schema.ts';
import { whatIf, type WhatIfReport } from '../../core/whatif/whatif.ts';
import { text } from '../args.ts';
import { UsageError } from '../errors.ts';
import { readLogFileText } from '../node-source.ts';
import type { CliCommand } from '../registry.ts';

const USAGE = 'whatif <log.jsonl|.zst|.gz> --edits EDITS.json [--json] [--out EDITED.jsonl]';

export const whatifCommand: CliCommand = {
  name: 'whatif',
  summary: 'The log re-folded with edits (drop, new text, insert a user message, undo a replace), compared call by call with the original.',
  usage: USAGE,
  help: `
EDITS.json is a list of edits by the original log's seqs:
  {"kind":"drop","seq":41}  {"kind":"text","seq":41,"text":"…"}
  {"kind":"insert-user","before":41,"text":"…"}  {"kind":"undo-replace","seq":41}
JSON fields: edits, problems, identical, firstDivergence, verdictBefore,
verdictAfter, calls [{before, after, status, tokensBefore, tokensAfter,
prefixBefore, prefixAfter}] (estimated input tokens; kept leading messages),
comparison (as diff --json). Exit 0 whether or not the runs differ.

  --edits FILE   the edit list (or the list itself: --edits '[{"kind":"drop","seq":41}]')
  --json         print the report as JSON on stdout
  --out FILE     also write the edited log (plain JSONL)

example: dsh-devtools whatif session.jsonl --edits edits.json --json`,
  flags: { edits: { type: 'string' }, json: { type: 'boolean' }, out: { type: 'string' } },
  async run({ values, positionals }) {
    const editsFile = text(values.edits);
    if (positionals.length !== 1 || !editsFile) throw new UsageError(`usage: dsh-devtools ${USAGE}`);
    const [file] = positionals;
    let raw: unknown;
    // The list itself may stand in for its file (a JSON array starts with '[', no file name does here).
    const inline = editsFile.trimStart().startsWith('[');
    try {
      raw = JSON.parse(inline ? editsFile : fs.readFileSync(editsFile, 'utf8'));
    } catch (err) {
      throw new Error(`cannot read the edit list ${inline ? '(inline)' : editsFile}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const parsed = parseEdits(raw);
    if (!parsed.ok) throw new Error(`${inline ? 'the edit list' : editsFile}: ${parsed.error}`);
    if (!fs.existsSync(file) || fs.statSync(file).isDirectory()) throw new Error(`cannot read ${file}: give one log file`);
    const { report, editedText } = whatIf(await readLogFileText(file), parsed.edits, path.basename(file));
    const out = text(values.out);
    if (out) fs.writeFileSync(out, editedText);
    process.stdout.write(values.json === true ? JSON.stringify(report, null, 2) + '\n' : reportText(report) + '\n');
  },
};

/** The report for a terminal: the edits, their problems, the first divergence and the calls whose request changed. */
function reportText(r: WhatIfReport): string {
  const lines = r.edits.map((e, i) => `edit ${i + 1}: ${e.text}`);
  for (const p of r.problems) lines.push(`problem${p.edit !== undefined ? ` (edit ${p.edit + 1})` : ''}: ${p.message}`);
  lines.push(`verdict: ${r.verdictBefore.kind} → ${r.verdictAfter.kind}`);
  if (r.identical) { lines.push('identical: every model call is the same'); return lines.join('\n'); }
  const d = r.firstDivergence;
  if (d) lines.push(`first divergence: call ${d.callA} → ${d.callB} (${d.what}${d.messageIndex !== undefined ? ` from message ${d.messageIndex}` : ''})`);
  for (const c of r.calls) {
    if (c.status === 'same') continue;
    const name = c.before === null ? `new call ${c.after}` : c.after === null ? `call ${c.before} (gone)` : `call ${c.before}`;
    const tokens = c.tokensBefore !== null && c.tokensAfter !== null ? `: ${c.tokensBefore.toLocaleString('en-US')} → ${c.tokensAfter.toLocaleString('en-US')} input tokens (estimated)` : '';
    const prefix = c.prefixBefore !== null && c.prefixAfter !== null && c.prefixBefore !== c.prefixAfter ? `; the cached prefix now ends at message ${c.prefixAfter} (was ${c.prefixBefore})` : '';
    lines.push(`${name}${tokens}${prefix}`);
  }
  return lines.join('\n');
}
