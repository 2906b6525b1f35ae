import fs from 'node:fs';
import { describe, it } from 'vitest';
import { corpusLogs } from './corpus-dir.ts';
import { awkwardCuts, followInPieces, randomCuts } from '../follow/follow-check.ts';
import { followEngineInPieces } from '../follow/follow-engine-check.ts';
import { zstdFrames } from '../../src/core/fuzz/encode.ts';

const logs = corpusLogs();

describe('following the real DSH corpus as it grows (issue #21)', () => {
  // Random cuts (mid-line, mid-UTF-8 character); after every append the follower equals a load of the bytes so far.
  it.each(logs.map((l, i) => [l.name, l, i] as const))('%s', async (_name, log, i) => {
    const bytes = new Uint8Array(fs.readFileSync(log.file));
    await followInPieces(bytes, randomCuts(bytes.length, 1000 + i, 12, awkwardCuts(bytes, 3)));
    // The same log as DSH's zstd form (a frame per few lines), cut mid-frame.
    if (i % 4 === 0 && bytes[0] === 0x7b) {
      const lines = new TextDecoder().decode(bytes).split(/(?<=\n)/);
      const frames: string[] = [];
      for (let k = 0; k < lines.length; k += 3) frames.push(lines.slice(k, k + 3).join(''));
      const raw = zstdFrames(frames);
      await followInPieces(raw, randomCuts(raw.length, 2000 + i, 8));
    }
  });
});

describe('the app following the real DSH corpus as it grows (issues #21, #15)', () => {
  // The worker's follow slot: after every append the open log is the committed part as a fresh load
  // of the bytes so far shows it (rows, surface, prompt, projections, calls); after stop, the whole load.
  it.each(logs.map((l, i) => [l.name, l, i] as const))('%s', async (_name, log, i) => {
    const bytes = new Uint8Array(fs.readFileSync(log.file));
    await followEngineInPieces(bytes, randomCuts(bytes.length, 3000 + i, 6, awkwardCuts(bytes, 2)));
  });
});
