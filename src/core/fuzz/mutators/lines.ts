// Bytes and lines: cuts, flipped bytes, dropped, repeated, swapped and renumbered rows, broken JSON.
import { joinLines, type FuzzBase } from '../base.ts';
import type { Fault, Mutation, Mutator } from '../mutation.ts';
import { eventLines, lineAtByte, lineByteRange, parseRow, pickEventLine, replaceLine } from '../rows.ts';

/** Cut the file at byte `cut`. */
export function truncateAt(base: FuzzBase, cut: number): Mutation {
  const b = base.bytes;
  const line = lineAtByte(b, cut);
  const atBoundary = cut === 0 || b[cut - 1] === 0x0a;
  const fault: Fault = cut === 0 ? { kind: 'line', line: 1, exact: true } : atBoundary ? { kind: 'none' } : { kind: 'line', line, exact: true };
  return { mutator: 'truncate', detail: `cut at byte ${cut} of ${b.length} (line ${line})`, bytes: b.subarray(0, cut), encoding: 'plain', fault };
}

export const truncate: Mutator = (base, rng) => {
  if (rng.chance(0.5)) return truncateAt(base, rng.int(0, base.bytes.length));
  const line = rng.int(1, base.lines.length);
  const [start, end] = lineByteRange(base, line);
  return truncateAt(base, rng.int(start, end));
};

const SPECIAL_BYTES = [0x0a, 0x0d, 0x22, 0x7b, 0x7d, 0x5c, 0x00, 0xff, 0xc3, 0x80, 0x20, 0x2c, 0x3a, 0x5b, 0x5d, 0xef, 0xbb, 0xbf];

export const flipBytes: Mutator = (base, rng) => {
  const line = rng.int(1, base.lines.length);
  const [start, end] = lineByteRange(base, line);
  if (end <= start) return null;
  const bytes = base.bytes.slice();
  const n = rng.int(1, 3);
  const where: string[] = [];
  for (let k = 0; k < n; k++) {
    const at = rng.int(start, end - 1);
    bytes[at] = rng.chance(0.5) ? bytes[at] ^ rng.int(1, 255) : rng.pick(SPECIAL_BYTES);
    where.push(`${at}=0x${bytes[at].toString(16)}`);
  }
  return { mutator: 'flip-bytes', detail: `line ${line}: ${where.join(' ')}`, bytes, encoding: 'plain', fault: { kind: 'maybe' } };
};


export const dropLine: Mutator = (base, rng) => {
  const line = rng.int(1, base.lines.length);
  const lines = base.lines.slice();
  lines.splice(line - 1, 1);
  const last = line === base.lines.length;
  const isEvent = eventLines(base).seqOf.has(line);
  // Dropping the last row leaves a valid shorter log; any other event row opens a seq gap on the next line.
  const fault: Fault = line === 1 ? { kind: 'line', line: 1, exact: true } : last ? { kind: 'none' } : isEvent && !base.numbered ? { kind: 'line', line, exact: true } : { kind: 'maybe' };
  return { mutator: 'drop-line', detail: `drop line ${line}`, text: joinLines(base, lines), encoding: 'plain', fault };
};

export const duplicateLine: Mutator = (base, rng) => {
  const line = rng.int(1, base.lines.length);
  const lines = base.lines.slice();
  lines.splice(line, 0, lines[line - 1]);
  const fault: Fault = base.numbered ? { kind: 'maybe' } : { kind: 'line', line: line + 1, exact: true };
  return { mutator: 'duplicate-line', detail: `duplicate line ${line}`, text: joinLines(base, lines), encoding: 'plain', fault };
};

export const swapLines: Mutator = (base, rng) => {
  if (base.lines.length < 3) return null;
  const line = rng.int(2, base.lines.length - 1);
  const lines = base.lines.slice();
  [lines[line - 1], lines[line]] = [lines[line], lines[line - 1]];
  if (lines[line - 1] === lines[line]) return null;
  const bothEvents = eventLines(base).seqOf.has(line) && eventLines(base).seqOf.has(line + 1);
  const fault: Fault = bothEvents && !base.numbered ? { kind: 'line', line, exact: true } : { kind: 'maybe' };
  return { mutator: 'swap-lines', detail: `swap lines ${line} and ${line + 1}`, text: joinLines(base, lines), encoding: 'plain', fault };
};

export const renumberSeqs: Mutator = (base, rng) => {
  if (base.numbered) return null;
  const hit = pickEventLine(base, rng);
  if (!hit) return null;
  const { line } = hit;
  if (rng.chance(0.3)) {
    // One bad seq value: the envelope rejects it.
    const bad = rng.pick([1.5, -1, '7', null, 2 ** 53, true, [], {}] as unknown[]);
    const row = { ...hit.row };
    if ('seq0' in row) row.seq0 = bad; else row.seq = bad;
    return { mutator: 'renumber', detail: `line ${line}: seq := ${JSON.stringify(bad)}`, text: replaceLine(base, line, JSON.stringify(row)), encoding: 'plain', fault: { kind: 'line', line, exact: true } };
  }
  const by = rng.pick([-3, -2, -1, 1, 2, 1000]);
  const lines = base.lines.map((l, i) => {
    if (i + 1 < line) return l;
    const r = parseRow(l);
    if (!r) return l;
    const out = { ...r };
    if (typeof out.seq === 'number') out.seq += by;
    if (typeof out.seq0 === 'number') out.seq0 += by;
    return JSON.stringify(out);
  });
  return { mutator: 'renumber', detail: `seqs from line ${line} shifted by ${by}`, text: joinLines(base, lines), encoding: 'plain', fault: { kind: 'line', line, exact: true } };
};

export const breakJson: Mutator = (base, rng) => {
  const line = rng.chance(0.1) ? 1 : rng.int(1, base.lines.length);
  const text = base.lines[line - 1];
  if (!text || !text.startsWith('{') || !text.endsWith('}')) return null;
  const variant = rng.int(0, 9);
  let broken: string;
  let exact = true;
  switch (variant) {
    case 0: broken = text.slice(0, -1); break;
    case 1: broken = text.slice(1); break;
    case 2: broken = text + ','; break;
    case 3: broken = text + text; break;
    case 4: broken = rng.pick(['[]', '42', '"row"', 'null', 'true', '[{"type":"turn/start"}]']); break;
    case 5: broken = '{}'; break;
    case 6: broken = text.slice(0, -1) + ',"x":}'; break;
    case 7: broken = text.replace(/"/, "'"); break;
    case 8: broken = text.slice(0, rng.int(1, text.length - 1)); break;
    default: {
      const at = rng.int(1, text.length - 1);
      broken = text.slice(0, at) + rng.pick(['}', '{', '"', ']', '\\', '\u0000', 'NaN', ',,']) + text.slice(at);
      exact = false;
    }
  }
  const fault: Fault = exact ? { kind: 'line', line, exact: true } : { kind: 'maybe' };
  return { mutator: 'break-json', detail: `line ${line} variant ${variant}`, text: replaceLine(base, line, broken), encoding: 'plain', fault };
};
