// `npm run gen-log -- --events N [--format v0|v4] [--zstd] [--seed S] --out F`:
// writes a realistic DSH log of about N events, made entirely by our generator.
import fs from 'node:fs';
import { zstdRawFrame } from '../src/core/fuzz/encode.ts';
import { generateLog } from '../src/core/generate/generate-log.ts';
import { installCliErrors } from './cli.ts';

installCliErrors('gen-log');

const args = process.argv.slice(2);
const flag = (name: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : undefined; };
const events = Number(flag('events') ?? 10000);
const format = (flag('format') ?? 'v0') as 'v0' | 'v4';
const seed = Number(flag('seed') ?? 1);
const out = flag('out');
const zstd = args.includes('--zstd');
if (!out || !Number.isSafeInteger(events) || events <= 0 || (format !== 'v0' && format !== 'v4')) {
  console.error('usage: npm run gen-log -- --events N [--format v0|v4] [--zstd] [--seed S] --out FILE');
  process.exit(2);
}

// Events per turn depend on the dialect (V0 chunks are separate events): calibrate on a small log.
const sample = generateLog({ dialect: format, seed, turns: 8, stepsPerTurn: 5 });
const turns = Math.max(1, Math.round((events / sample.events.length) * 8));
const log = generateLog({ dialect: format, seed, turns, stepsPerTurn: 5 });
if (zstd) {
  // DSH appends batches as separate zstd frames (spec §1.4); ours are stored-block frames.
  const enc = new TextEncoder();
  const fd = fs.openSync(out, 'w');
  fs.writeSync(fd, zstdRawFrame(enc.encode(log.lines[0] + '\n')));
  const BATCH = 200;
  for (let i = 1; i < log.lines.length; i += BATCH) fs.writeSync(fd, zstdRawFrame(enc.encode(log.lines.slice(i, i + BATCH).join('\n') + '\n')));
  fs.closeSync(fd);
} else {
  fs.writeFileSync(out, log.text);
}
console.log(`${out}: ${log.events.length} events, ${log.lines.length} lines, ${fs.statSync(out).size} bytes (${format}${zstd ? ', zstd frames' : ''}, seed ${seed}, ${turns} turns)`);
