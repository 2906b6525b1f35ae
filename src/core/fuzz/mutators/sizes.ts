// Section ids (L…, V…) are those of docs/dsh-log-rules.md.
// Sizes: huge and giant lines, deep nesting, long runs of blank lines, big numbers, inputs built to expand.
import type { Rng } from '../../generate/prng.ts';
import { MAX_ROW_DEPTH } from '../../log/row-checks.ts';
import { joinLines, type FuzzBase } from '../base.ts';
import { concatBytes, gzipRuns, zstdFrame, type RunPiece } from '../encode.ts';
import type { Fault, Mutator } from '../mutation.ts';
import { enc, envelope, insertRow, pickEventLine, pickInsertLine, replaceLine, type Row } from '../rows.ts';

/** A string of `n` bytes of varied, escapable text (quotes, backslashes, non-ASCII). */
export function bulk(rng: Rng, n: number): string {
  const unit = 'lorem "ipsum" \\ dolor — sit ämet 😀 \t';
  const reps = Math.max(1, Math.ceil(n / enc.encode(unit).length));
  return unit.repeat(reps) + rng.hex(8);
}

export const hugeLine: Mutator = (base, rng, options) => {
  const line = pickInsertLine(base, rng);
  if (line === null) return null;
  // Log-uniform, so most huge lines are merely big and a few are enormous.
  const [lo, hi] = options.hugeBytes;
  const size = Math.round(Math.exp(Math.log(lo) + rng.float() * (Math.log(hi) - Math.log(lo))));
  const variant = rng.pick(['ignorable', 'garbage', 'blank', 'message'] as const);
  if (variant === 'garbage' || variant === 'blank') {
    const lines = base.lines.slice();
    const text = variant === 'blank' ? ' '.repeat(size) : 'x'.repeat(size);
    lines.splice(line - 1, 0, text);
    const fault: Fault = variant === 'blank' ? { kind: 'none' } : { kind: 'line', line, exact: true };
    return { mutator: 'huge-line', detail: `${variant} line of ${size} bytes before line ${line}`, text: joinLines(base, lines), encoding: 'plain', fault, equivalent: variant === 'blank' ? { sameEvents: true } : undefined };
  }
  if (variant === 'message' && !base.numbered) {
    const ins = insertRow(base, line, (seq, time) => envelope(base, 'user/message', seq, time, { id: `huge-${seq}`, role: 'user', content: [{ type: 'text', text: bulk(rng, size) }], source: { kind: 'user' } }, { surfaceOp: 'append' }));
    if (!ins) return null;
    return { mutator: 'huge-line', detail: `user/message of ${size} bytes before line ${line}`, text: ins.text, encoding: 'plain', fault: { kind: 'maybe' } };
  }
  const ins = insertRow(base, line, (seq, time) => envelope(base, 'blob/attached', seq, time, { text: bulk(rng, size) }, { ignorable: true }));
  if (!ins) return null;
  return { mutator: 'huge-line', detail: `ignorable event of ${size} bytes before line ${line}`, text: ins.text, encoding: 'plain', fault: { kind: 'none' }, equivalent: { seqShift: { at: ins.seq } } };
};

/** JSON text nested `depth` levels deep (arrays, objects or both). */
export function nested(depth: number, shape: 'array' | 'object' | 'mixed'): string {
  let open = '';
  let close = '';
  const openOf = (i: number) => (shape === 'array' || (shape === 'mixed' && i % 2) ? '[' : '{"a":');
  const closeOf = (i: number) => (shape === 'array' || (shape === 'mixed' && i % 2) ? ']' : '}');
  const opens: string[] = [];
  const closes: string[] = [];
  for (let i = 0; i < depth; i++) { opens.push(openOf(i)); closes.push(closeOf(i)); }
  open = opens.join('');
  close = closes.reverse().join('');
  return open + '1' + close;
}

export const deepNesting: Mutator = (base, rng, options) => {
  const line = pickInsertLine(base, rng);
  if (line === null) return null;
  // `depth` levels inside data; the row adds two (row object, data value wrapper).
  const depth = rng.pick([3, 50, 300, MAX_ROW_DEPTH - 10, MAX_ROW_DEPTH + 10, 5000, 100_000, 1_000_000].filter((d) => d <= (options.maxDepth ?? 1e6)));
  const shape = rng.pick(['array', 'object', 'mixed'] as const);
  const tooDeep = depth > MAX_ROW_DEPTH;
  const variant = rng.pick(['opaque', 'message', 'unclosed'] as const);
  const deep = nested(depth, shape);
  if (variant === 'unclosed') {
    const lines = base.lines.slice();
    lines.splice(line - 1, 0, `{"type":"x/y","seq":0,"time":0,"data":${deep.slice(0, deep.length / 2)}`);
    return { mutator: 'deep-nesting', detail: `unclosed ${shape} nesting ${depth} before line ${line}`, text: joinLines(base, lines), encoding: 'plain', fault: { kind: 'line', line, exact: true } };
  }
  const placeholder = '"@@DEEP@@"';
  let ins: { text: string; seq: number } | null;
  if (variant === 'message' && !base.numbered) {
    ins = insertRow(base, line, (seq, time) => JSON.stringify(envelope(base, 'user/message', seq, time, { id: `deep-${seq}`, role: 'user', content: [{ type: 'text', text: 'deep', meta: '@@DEEP@@' }], source: { kind: 'user' } }, { surfaceOp: 'append' })).replace(placeholder, deep));
  } else {
    ins = insertRow(base, line, (seq, time) => JSON.stringify(envelope(base, 'deep/opaque', seq, time, '@@DEEP@@', { ignorable: true })).replace(placeholder, deep));
  }
  if (!ins) return null;
  // A new surface node may leave a later replace uncovered: only the opaque event is harmless.
  const fault: Fault = tooDeep ? { kind: 'line', line, exact: true } : variant === 'message' ? { kind: 'maybe' } : { kind: 'none' };
  const equivalent = !tooDeep && variant !== 'message' ? { seqShift: { at: ins.seq } } : undefined;
  return { mutator: 'deep-nesting', detail: `${variant} ${shape} nesting ${depth} before line ${line}`, text: ins.text, encoding: 'plain', fault, equivalent };
};



const longest = new WeakMap<FuzzBase, number>();
function longestLine(base: FuzzBase): number {
  let n = longest.get(base);
  if (n === undefined) { n = base.lines.reduce((m, l) => Math.max(m, l.length), 0); longest.set(base, n); }
  return n;
}

/** Log-uniform in [lo, hi]: most sizes modest, a few enormous. */
function logUniform(rng: Rng, lo: number, hi: number): number {
  return Math.round(Math.exp(Math.log(lo) + rng.float() * (Math.log(Math.max(lo, hi)) - Math.log(lo))));
}

/**
 * Whether a bad row inserted at `line` leaves the base's events as they are:
 * nothing after it, or a later turn/end that commits the region (L1.8).
 */
function badRowKeepsEvents(base: FuzzBase, line: number): boolean {
  const { origins, events } = base.read;
  let after = false;
  for (let i = 0; i < events.length; i++) {
    if (origins[i].line < line) continue;
    after = true;
    if (events[i].type === 'turn/end') return true;
  }
  return !after;
}

/** The opening of a user/message whose text never ends: what a runaway writer leaves. */
const runawayOpen = (seq: number) => `{"type":"user/message","seq":${seq},"time":1,"surfaceOp":"append","data":{"id":"runaway","role":"user","content":[{"type":"text","text":"`;

/** A line over the reader's line limit (set low): skipped unread, reported, and the rest reads on. */
export const giantLine: Mutator = (base, rng, options) => {
  // Low, but above every line of the base: only the giant line is over it.
  const limit = Math.max(rng.pick([256, 4096, 65_536]), longestLine(base) + 1);
  const size = logUniform(rng, limit + 1, Math.max(limit + 2, Math.min(options.hugeBytes[1], limit * 256)));
  const where = rng.pick(['middle', 'end', 'partial'] as const);
  if (where !== 'middle' && !base.endsWithNewline) return null;
  const line = where === 'middle' ? pickInsertLine(base, rng) : base.lines.length + 1;
  if (line === null) return null;
  const next = base.read.events.length ? base.read.events[base.read.events.length - 1].seq + 1 : 0;
  const kind = rng.pick(['runaway', 'garbage', 'spaces', 'escapes'] as const);
  const body = kind === 'runaway' ? runawayOpen(next) + 'a'.repeat(size) + (rng.chance(0.5) ? '"}],"source":{"kind":"user"}}}' : '')
    : kind === 'garbage' ? 'x'.repeat(size)
    : kind === 'spaces' ? ' '.repeat(size)
    : `{"type":"x/y","ignorable":true,"seq":${next},"time":1,"data":"${'\\u00e4'.repeat(Math.ceil(size / 6))}"}`;
  const lines = base.lines.slice();
  lines.splice(line - 1, 0, body);
  const text = where === 'partial' ? base.lines.join('\n') + '\n' + body : joinLines(base, lines);
  return {
    mutator: 'giant-line', detail: `${kind} line of ${body.length} chars ${where === 'middle' ? `before line ${line}` : where === 'end' ? 'at the end' : 'as a partial last line'}, limit ${limit}`,
    // The runner checks the read holds no copy of the giant line (memory bounded by the limit, not the line).
    text, encoding: 'plain', maxLineChars: limit, expands: body.length,
    fault: { kind: 'line', line, exact: true },
    equivalent: badRowKeepsEvents(base, line) ? { sameEvents: true } : undefined,
  };
};

/** One string field of an event made huge (under the line limit): nothing may crash or stall. */
export const giantString: Mutator = (base, rng, options) => {
  const hit = pickEventLine(base, rng, (r) => r.data !== null && typeof r.data === 'object');
  if (!hit) return null;
  const size = logUniform(rng, 10_000, options.hugeBytes[1]);
  const row = JSON.parse(JSON.stringify(hit.row)) as Row;
  // The first string found walking the payload (a message text, a tool argument, an id).
  const grow = (v: any): boolean => {
    if (!v || typeof v !== 'object') return false;
    for (const k of Object.keys(v)) {
      if (typeof v[k] === 'string' && k !== 'type' && k !== 'role' && k !== 'kind') { v[k] = bulk(rng, size); return true; }
      if (grow(v[k])) return true;
    }
    return false;
  };
  if (!grow(row.data)) return null;
  return { mutator: 'giant-string', detail: `line ${hit.line}: a ${size}-byte string`, text: replaceLine(base, hit.line, JSON.stringify(row)), encoding: 'plain', fault: { kind: 'maybe' } };
};

/** Hundreds of thousands to millions of blank lines in one place: skipped, and the log is the same. */
export const blankLines: Mutator = (base, rng, options) => {
  const n = logUniform(rng, 1000, Math.min(3_000_000, options.hugeBytes[1]));
  // After line `at` (never after a partial last line, which would complete it).
  const at = rng.int(1, base.lines.length - (base.endsWithNewline ? 0 : 1));
  if (at < 1) return null;
  const lines = base.lines.slice();
  lines.splice(at, 0, '\n'.repeat(n - 1));
  return { mutator: 'blank-lines', detail: `${n} blank lines after line ${at}`, text: joinLines(base, lines), encoding: 'plain', fault: { kind: 'none' }, equivalent: { sameEvents: true }, expands: n };
};

/** Literals past 2^53 (and past a double's range) where a seq or a time belongs. */
const BIG_NUMBERS = ['9007199254740992', '9007199254740993', '-9007199254740993', '18446744073709551616', '123456789012345678901234567890', '1e300', '1e400', '-1e400'];

export const bigNumbers: Mutator = (base, rng) => {
  const hit = pickEventLine(base, rng, (r) => ['seq', 'time', 'seq0', 'time0'].some((k) => typeof r[k] === 'number'));
  if (!hit) return null;
  const key = rng.pick(['seq', 'time', 'seq0', 'time0'].filter((k) => typeof hit.row[k] === 'number'));
  const literal = rng.pick(BIG_NUMBERS);
  const text = JSON.stringify({ ...hit.row, [key]: '@@BIG@@' }).replace('"@@BIG@@"', literal);
  return { mutator: 'big-numbers', detail: `line ${hit.line}: ${key} := ${literal}`, text: replaceLine(base, hit.line, text), encoding: 'plain', fault: { kind: 'line', line: hit.line, exact: true } };
};

/**
 * zstd or gzip input that expands: a giant line written as runs (RLE blocks,
 * deflate copies), a run of blank lines, or (zstd) a frame that asks for a
 * window or block bigger than decoders allow. Memory must stay bounded.
 */
export const expanding: Mutator = (base, rng, options) => {
  const [lo, hi] = options.bombBytes ?? options.hugeBytes;
  const gzip = rng.chance(0.3);
  const variant = gzip ? rng.pick(['long-line', 'blank-run'] as const) : rng.pick(['long-line', 'long-line', 'blank-run', 'window', 'block'] as const);
  if (!base.endsWithNewline) return null;
  const lines = base.lines;
  const at = variant === 'long-line' && rng.chance(0.5) ? rng.int(2, lines.length + 1) : lines.length + 1;
  const before = lines.slice(0, at - 1).map((l) => l + '\n').join('');
  const after = lines.slice(at - 1).map((l) => l + '\n').join('');
  const next = base.read.events.length ? base.read.events[base.read.events.length - 1].seq + 1 : 0;
  const encodeAll = (pieces: RunPiece[]): Uint8Array => (gzip ? gzipRuns(pieces) : concatBytes([zstdFrame([enc.encode(before)]), zstdFrame(pieces.length ? pieces : [new Uint8Array(0)], { windowLog: rng.pick([17, 20]) })]));
  const bodyPieces = (pieces: RunPiece[]): RunPiece[] => (gzip ? [enc.encode(before), ...pieces] : pieces);
  const encoding = gzip ? 'gzip' : 'zstd';
  switch (variant) {
    case 'long-line': {
      const limit = Math.max(rng.pick([4096, 1 << 20]), longestLine(base) + 1);
      const size = Math.max(limit + 1, logUniform(rng, lo, hi));
      const open = runawayOpen(next);
      const partial = at > lines.length && rng.chance(0.5);
      const pieces: RunPiece[] = [enc.encode(open), { repeat: 0x61, count: size }, ...(partial ? [] : [enc.encode('"}],"source":{"kind":"user"}}}\n' + after)])];
      return {
        mutator: 'expanding', detail: `${encoding}: a ${size + open.length}-byte line ${partial ? 'left open at the end' : `before line ${at}`}, limit ${limit}`,
        bytes: encodeAll(bodyPieces(pieces)), encoding, prefixText: before, maxLineChars: limit, expands: size,
        fault: { kind: 'line', line: at, exact: true }, equivalent: badRowKeepsEvents(base, at) ? { sameEvents: true } : undefined,
      };
    }
    case 'blank-run': {
      // Each blank line is still a line to step over: kept to a few million.
      const n = Math.min(logUniform(rng, lo, hi), 4_000_000);
      return {
        mutator: 'expanding', detail: `${encoding}: ${n} blank lines at the end`, bytes: encodeAll(bodyPieces([{ repeat: 0x0a, count: n }])), encoding,
        prefixText: before, expands: n, fault: { kind: 'none' }, equivalent: { sameEvents: true },
      };
    }
    default: {
      // A frame whose header asks for a 2 GiB window (declared size or descriptor), or an RLE block over 128 KiB.
      const header = variant === 'block'
        ? Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0x00, (21 - 10) << 3)
        : rng.chance(0.5) ? Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0xa0, 0x00, 0x00, 0x00, 0x80) : Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0x00, (31 - 10) << 3);
      const size = variant === 'block' ? 1 << 20 : 1 << 17;
      const block = (size << 3) | (1 << 1) | 1;
      const frame = concatBytes([header, Uint8Array.of(block & 0xff, (block >> 8) & 0xff, (block >> 16) & 0xff, 0x0a)]);
      return {
        mutator: 'expanding', detail: `zstd: a frame asking for ${variant === 'block' ? 'a 1 MiB block' : 'a 2 GiB window'} at the end`,
        bytes: concatBytes([zstdFrame([enc.encode(before)]), frame]), encoding: 'zstd', prefixText: before,
        fault: { kind: 'line', line: at, exact: false },
      };
    }
  }
};
