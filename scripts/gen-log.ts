// `npm run gen-log -- --events N [--format v0|v4|dsh021] [--shape long] [--zstd] [--seed S] --out F`:
// writes a realistic DSH log of about N events, made entirely by our generator
// (dsh021: a format-4 log shaped like DSH 0.2.1-alpha.2's; long: a 1M-token
// session that never compacts, its surface growing for thousands of calls).
// Written line by line, so a log of any size fits in memory.
import fs from 'node:fs';
import { zstdRawFrame } from '../src/core/fuzz/encode.ts';
import { generateLog, streamLog } from '../src/core/generate/generate-log.ts';
import { installCliErrors } from './cli.ts';

installCliErrors('gen-log');

const args = process.argv.slice(2);
const flag = (name: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : undefined; };
const events = Number(flag('events') ?? 10000);
const format = flag('format') ?? 'v0';
const seed = Number(flag('seed') ?? 1);
const out = flag('out');
const zstd = args.includes('--zstd');
const shapeName = flag('shape') ?? 'default';
if (!out || !Number.isSafeInteger(events) || events <= 0 || !['v0', 'v4', 'dsh021'].includes(format) || !['default', 'long'].includes(shapeName)) {
  console.error('usage: npm run gen-log -- --events N [--format v0|v4|dsh021] [--shape long] [--zstd] [--seed S] --out FILE');
  process.exit(2);
}

// Events per turn depend on the dialect (V0 chunks are separate events) and the shape: calibrate on a small log.
const long = shapeName === 'long';
const shape = { ...(format === 'dsh021' ? { dialect: 'v4' as const, dsh021: true } : { dialect: format as 'v0' | 'v4' }), long };
const sample = generateLog({ ...shape, seed, turns: 8 });
const turns = Math.max(1, Math.round((events / sample.events.length) * 8));
// DSH appends batches as separate zstd frames (spec §1.4); ours are stored-block frames.
const enc = new TextEncoder();
const fd = fs.openSync(out, 'w');
let batch: string[] = [];
const flush = () => {
  if (!batch.length) return;
  const text = batch.join('\n') + '\n';
  if (zstd) fs.writeSync(fd, zstdRawFrame(enc.encode(text)));
  else fs.writeSync(fd, text);
  batch = [];
};
let lines = 0;
const written = streamLog({ ...shape, seed, turns }, (line) => {
  batch.push(line);
  lines++;
  if (lines === 1 || batch.length >= 200) flush();
});
flush();
fs.closeSync(fd);
console.log(`${out}: ${written} events, ${lines} lines, ${fs.statSync(out).size} bytes (${format}${long ? ', long session' : ''}${zstd ? ', zstd frames' : ''}, seed ${seed}, ${turns} turns)`);
