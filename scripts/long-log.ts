// `npm run long-log -- --events N [--from DIR] [--format 0|4] --out F`: one long, valid,
// never-compacted session made of real DSH logs (the corpus by default), for the
// long-session benchmark (docs/long-sessions.md). The logs are read in place, never copied into the repo.
import fs from 'node:fs';
import path from 'node:path';
import { concatSessions } from '../src/core/generate/concat-sessions.ts';
import { installCliErrors } from './cli.ts';

// A bad --out path or an unreadable log: one line and exit 1 (--debug for the stack), as every command.
installCliErrors('long-log');

const args = process.argv.slice(2);
const flag = (name: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : undefined; };
const events = Number(flag('events') ?? 100_000);
const from = path.resolve(flag('from') ?? path.join(process.env.DSH_CORPUS ?? '../shared/corpus', 'dsh'));
const format = Number(flag('format') ?? 0);
const out = flag('out');
if (!out || !Number.isSafeInteger(events) || events <= 0 || !Number.isSafeInteger(format)) {
  console.error('usage: npm run long-log -- --events N [--from DIR] [--format 0|4] --out FILE');
  process.exit(2);
}
if (!fs.existsSync(from)) {
  console.error(`long-log: ${from} not found (pass --from DIR or set DSH_CORPUS)`);
  process.exit(1);
}
const parts = fs.readdirSync(from).filter((f) => f.endsWith('.jsonl')).sort()
  .map((name) => ({ name, text: fs.readFileSync(path.join(from, name), 'utf8') }))
  // One format per session: parts of other formats are left out before the concatenation.
  .filter((p) => { const v = (JSON.parse(p.text.slice(0, p.text.indexOf('\n'))) as { version?: number }).version ?? 0; return v === format; });
const result = concatSessions(parts, { targetEvents: events });
if (result.events === 0) {
  console.error(`long-log: no usable format-${format} log in ${from}`);
  process.exit(1);
}
const fd = fs.openSync(out, 'w');
for (let i = 0; i < result.lines.length; i += 10_000) fs.writeSync(fd, result.lines.slice(i, i + 10_000).join('\n') + '\n');
fs.closeSync(fd);
console.log(`${out}: ${result.events} events from ${result.used.length} logs (${result.skipped.length} left out), ${fs.statSync(out).size} bytes`);
