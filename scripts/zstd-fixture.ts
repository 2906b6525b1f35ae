// `npx tsx scripts/zstd-fixture.ts`: builds test/fixtures/batches.jsonl.zst, a generated log compressed as
// DSH writes it (a zstd frame per append batch, checksummed), with the zstd CLI (1.5.4 made the committed
// one): most frames declare their size (compressed from a file), every sixth does not (from standard
// input), one holds more than a block (over 128 KiB of lines). The tests need only the file it made.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateLog } from '../src/core/generate/generate-log.ts';

const text = generateLog({ dialect: 'v0', seed: 15, turns: 7 }).text;
const lines = text.split('\n').slice(0, -1).map((l) => l + '\n');
const scratch = path.join(os.tmpdir(), `zstd-fixture-${process.pid}.txt`);
const fromFile = (s: string) => { fs.writeFileSync(scratch, s); return execFileSync('zstd', ['-q', '-c', scratch]); };
const fromStdin = (s: string) => execFileSync('zstd', ['-q', '-c'], { input: s });

// The header alone, as DSH writes frame 0; then batches of 1-11 lines, the ninth over 128 KiB.
const frames = [fromFile(lines[0])];
for (let i = 1, k = 1; i < lines.length; k++) {
  let batch = '';
  if (k === 9) while (batch.length < 140_000 && i < lines.length) batch += lines[i++];
  else {
    const n = 1 + ((k * 7) % 11);
    batch = lines.slice(i, i + n).join('');
    i += n;
  }
  frames.push(k % 6 === 0 ? fromStdin(batch) : fromFile(batch));
}
fs.rmSync(scratch, { force: true });
const out = Buffer.concat(frames);
fs.writeFileSync(new URL('../test/fixtures/batches.jsonl.zst', import.meta.url), out);
console.log(`${frames.length} frames: ${text.length} bytes of log in ${out.length}`);
