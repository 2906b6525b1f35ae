// Encodings: the log as zstd frames and gzip members, valid and broken.
import type { Rng } from '../../generate/prng.ts';
import { type FuzzBase } from '../base.ts';
import { concatBytes, gzipStored, zstdRawFrame, zstdSkippableFrame } from '../encode.ts';
import type { Mutator } from '../mutation.ts';
import { enc } from '../rows.ts';

/** Whole-line batches, the way DSH writes a frame per flush. */
function batches(base: FuzzBase, rng: Rng): string[] {
  const out: string[] = [];
  let i = 0;
  const lines = base.lines;
  while (i < lines.length) {
    const n = rng.int(1, Math.max(1, Math.ceil(lines.length / 3)));
    const part = lines.slice(i, i + n);
    i += n;
    const last = i >= lines.length;
    out.push(part.join('\n') + (last && !base.endsWithNewline ? '' : '\n'));
  }
  return out.length ? out : [''];
}

export const zstd: Mutator = (base, rng) => {
  const texts = batches(base, rng);
  const frames = texts.map((t) => zstdRawFrame(enc.encode(t)));
  const starts: number[] = [];
  let o = 0;
  for (const f of frames) { starts.push(o); o += f.length; }
  const whole = concatBytes(frames);
  const firstLine = (j: number) => texts.slice(0, j).reduce((n, t) => n + t.split('\n').length - 1, 0) + 1;
  const prefix = (j: number) => texts.slice(0, j).join('');
  const variant = rng.pick(['clean', 'skippable', 'truncate', 'magic', 'block-type', 'trailing', 'flip'] as const);
  const j = rng.int(0, frames.length - 1);
  switch (variant) {
    case 'clean':
      return { mutator: 'zstd', detail: `${frames.length} frames`, bytes: whole, encoding: 'zstd', fault: { kind: 'none' }, equivalent: { sameEvents: true } };
    case 'skippable': {
      const parts = frames.slice();
      parts.splice(j + 1, 0, zstdSkippableFrame(enc.encode('skip me'), rng.int(0, 15)));
      return { mutator: 'zstd', detail: `skippable frame after frame ${j}`, bytes: concatBytes(parts), encoding: 'zstd', fault: { kind: 'none' }, equivalent: { sameEvents: true } };
    }
    case 'truncate': {
      const cut = rng.int(starts[j] + 1, starts[j] + frames[j].length);
      const clean = cut === starts[j] + frames[j].length;
      return { mutator: 'zstd', detail: `truncate at byte ${cut} (frame ${j})`, bytes: whole.subarray(0, cut), encoding: 'zstd', prefixText: prefix(clean ? j + 1 : j), fault: clean ? { kind: 'none' } : { kind: 'line', line: firstLine(j), exact: false } };
    }
    case 'magic': {
      const bytes = whole.slice();
      bytes[starts[j] + rng.int(0, 3)] ^= rng.int(1, 255);
      return { mutator: 'zstd', detail: `bad magic of frame ${j}`, bytes, encoding: 'zstd', prefixText: prefix(j), fault: j === 0 ? { kind: 'maybe' } : { kind: 'line', line: firstLine(j), exact: false } };
    }
    case 'block-type': {
      const bytes = whole.slice();
      bytes[starts[j] + 9] |= 0b110; // reserved block type 3
      return { mutator: 'zstd', detail: `reserved block type in frame ${j}`, bytes, encoding: 'zstd', prefixText: prefix(j), fault: { kind: 'line', line: firstLine(j), exact: false } };
    }
    case 'trailing': {
      const junk = enc.encode(rng.pick(['garbage', '\n', '{"type":"x"}', '\u0000\u0000\u0000\u0000']));
      return { mutator: 'zstd', detail: 'junk after the last frame', bytes: concatBytes([whole, junk]), encoding: 'zstd', prefixText: texts.join(''), fault: { kind: 'line', line: firstLine(frames.length), exact: false } };
    }
    default: {
      const bytes = whole.slice();
      const at = rng.int(starts[j], starts[j] + frames[j].length - 1);
      bytes[at] ^= rng.int(1, 255);
      return { mutator: 'zstd', detail: `flip byte ${at} (frame ${j})`, bytes, encoding: 'zstd', prefixText: prefix(j), fault: { kind: 'maybe' } };
    }
  }
};

export const gzip: Mutator = (base, rng) => {
  const whole = gzipStored(base.bytes);
  const variant = rng.pick(['clean', 'truncate', 'crc', 'header'] as const);
  switch (variant) {
    case 'clean':
      return { mutator: 'gzip', detail: 'stored gzip', bytes: whole, encoding: 'gzip', fault: { kind: 'none' }, equivalent: { sameEvents: true } };
    case 'truncate': {
      const cut = rng.int(2, whole.length - 1);
      return { mutator: 'gzip', detail: `truncate at byte ${cut} of ${whole.length}`, bytes: whole.subarray(0, cut), encoding: 'gzip', prefixText: '', fault: { kind: 'line', line: 1, exact: false } };
    }
    case 'crc': {
      const bytes = whole.slice();
      bytes[bytes.length - 8 + rng.int(0, 7)] ^= rng.int(1, 255);
      return { mutator: 'gzip', detail: 'bad CRC/ISIZE trailer', bytes, encoding: 'gzip', prefixText: '', fault: { kind: 'line', line: 1, exact: false } };
    }
    default: {
      const bytes = whole.slice();
      bytes[2] = 7; // not deflate
      return { mutator: 'gzip', detail: 'bad compression method', bytes, encoding: 'gzip', prefixText: '', fault: { kind: 'line', line: 1, exact: false } };
    }
  }
};
