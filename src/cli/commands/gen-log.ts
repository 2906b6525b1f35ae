// `dsh-devtools gen-log --events N [--format v0|v4|dsh021] [--jobs] [--shape long] [--zstd] [--seed S] --out F`:
// writes a realistic DSH log of about N events, made entirely by our generator
// (dsh021: a format-4 log shaped like DSH 0.2.1-alpha.2's; --jobs adds 0.2.1-rc.2's
// background-job records to a format-4 log; long: a 1M-token
// session that never compacts, its surface growing for thousands of calls).
// Written line by line, so a log of any size fits in memory.
import fs from 'node:fs';
import { zstdRawFrame } from '../../core/fuzz/encode.ts';
import { DEMO_LOGS } from '../../core/generate/demo-logs.ts';
import { generateLog, streamLog } from '../../core/generate/generate-log.ts';
import { text, wholeNumber } from '../args.ts';
import { UsageError } from '../errors.ts';
import type { CliCommand } from '../registry.ts';
import { progress } from '../tty.ts';

const USAGE = 'gen-log (--events N [--format v0|v4|dsh021] [--jobs] [--shape long] [--zstd] [--seed S] | --demo) --out FILE';
const FORMATS = ['v0', 'v4', 'dsh021'];
const SHAPES = ['default', 'long'];

export const genLogCommand: CliCommand = {
  name: 'gen-log',
  summary: 'Write a realistic generated DSH log (our own generator; for demos, tests and benchmarks).',
  usage: USAGE,
  help: `
  --events N     about N events (default 10000)
  --format F     v0 (0.1.0-rc.8 shape, the default), v4, or dsh021 (format 4 shaped like DSH 0.2.1-alpha.2's)
  --jobs         format 4 only (v4, dsh021): 0.2.1-rc.2's background jobs (registered, settled
                 completed/failed/killed, one left running; a fork child inherits running ones)
  --shape long   a long session: 1M-token window, no compaction or pruning
  --zstd         write zstd frames, one per batch, as DSH appends them
  --seed S       the generator's seed (default 1); the same seed writes the same log
  --demo         the app's demo log (format 0, 7 turns, compactions, a retried call): SKILL.md's worked example
  --out FILE     where to write it

Prints one line: the file, its events, lines and bytes.

example: dsh-devtools gen-log --events 2000 --format v4 --out session.jsonl`,
  flags: {
    events: { type: 'string' },
    format: { type: 'string' },
    shape: { type: 'string' },
    zstd: { type: 'boolean' },
    jobs: { type: 'boolean' },
    seed: { type: 'string' },
    demo: { type: 'boolean' },
    out: { type: 'string' },
  },
  run({ values, positionals }) {
    const usage = `dsh-devtools ${USAGE}`;
    const events = wholeNumber(values.events, 'events', usage) ?? 10_000;
    const seed = wholeNumber(values.seed, 'seed', usage) ?? 1;
    const format = text(values.format) ?? 'v0';
    const shapeName = text(values.shape) ?? 'default';
    const out = text(values.out);
    if (!out) throw new UsageError(`--out FILE is needed; usage: ${usage}`);
    if (values.demo) {
      if (positionals.length || ['events', 'format', 'shape', 'zstd', 'jobs', 'seed'].some((k) => values[k] !== undefined)) throw new UsageError(`--demo takes only --out; usage: ${usage}`);
      const [name, options] = DEMO_LOGS[0];
      const log = generateLog(options);
      fs.writeFileSync(out, log.text);
      console.log(`${out}: ${log.events.length} events, ${log.lines.length} lines, ${Buffer.byteLength(log.text)} bytes (the app's ${name})`);
      return;
    }
    if (events <= 0 || positionals.length) throw new UsageError(`usage: ${usage}`);
    if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}; usage: ${usage}`);
    if (!SHAPES.includes(shapeName)) throw new UsageError(`--shape must be one of ${SHAPES.join(', ')}; usage: ${usage}`);
    const zstd = values.zstd === true;
    const jobs = values.jobs === true;
    if (jobs && format === 'v0') throw new UsageError(`--jobs needs a format-4 log (--format v4 or dsh021); usage: ${usage}`);

    // Events per turn depend on the dialect (V0 chunks are separate events) and the shape: calibrate on a small log.
    const long = shapeName === 'long';
    const shape = { ...(format === 'dsh021' ? { dialect: 'v4' as const, dsh021: true } : { dialect: format as 'v0' | 'v4' }), long, jobs };
    const sample = generateLog({ ...shape, seed, turns: 8 });
    const turns = Math.max(1, Math.round((events / sample.events.length) * 8));
    // DSH appends batches as separate zstd frames (dsh-log-rules L1.4); ours are stored-block frames.
    const enc = new TextEncoder();
    const fd = fs.openSync(out, 'w');
    const shown = progress('gen-log');
    let batch: string[] = [];
    let lines = 0;
    const flush = () => {
      if (!batch.length) return;
      const chunk = batch.join('\n') + '\n';
      if (zstd) fs.writeSync(fd, zstdRawFrame(enc.encode(chunk)));
      else fs.writeSync(fd, chunk);
      batch = [];
      shown.update(`${lines} lines written`, lines / events);
    };
    let written: number;
    try {
      written = streamLog({ ...shape, seed, turns }, (line) => {
        batch.push(line);
        lines++;
        if (lines === 1 || batch.length >= 200) flush();
      });
      flush();
    } finally {
      shown.done();
      fs.closeSync(fd);
    }
    console.log(`${out}: ${written} events, ${lines} lines, ${fs.statSync(out).size} bytes (${format}${jobs ? ', background jobs' : ''}${long ? ', long session' : ''}${zstd ? ', zstd frames' : ''}, seed ${seed}, ${turns} turns)`);
  },
};
