import { secretSpans } from '../export/redact.ts';

/**
 * Secrets the model streamed in pieces: a key typed into a tool call's
 * arguments reaches the log as many small deltas (packed `texts`/`args`
 * members, `assistant/chunk` rows, a v3/v4 message's inline `stream`), none
 * of which holds the whole key. Streaming rows are held until the stream
 * ends (the next row that is not one, or the end of the log); then each
 * block's pieces are joined, searched with the export patterns, and the
 * characters of a secret are masked with `*` in the pieces that hold them
 * (their lengths kept). A row with a masked piece is written again from its
 * parsed JSON; every other row keeps its bytes.
 */
const STREAM_MARK = /"(?:texts|args)":\[|"assistant\/chunk"/;
const MASK = '*';
/** Rows held at most (a stream longer than this is searched in parts). */
const MAX_HELD = 20_000;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** One piece of a stream: where its text lives, so a mask can be written back. */
interface Piece { row: HeldRow; holder: Json; field: string; member: number | null; text: string }
interface HeldRow { text: string; lineNo: number; parsed: Json | null; changed: boolean }

export class StreamMasker {
  private held: HeldRow[] = [];
  private blocks = new Map<string, Piece[]>();

  constructor(private readonly hit: (what: string, lineNo: number) => void) {}

  /** Rows ready to write, in order: none while a stream is being held. */
  push(text: string, lineNo: number): { text: string; lineNo: number }[] {
    const row = STREAM_MARK.test(text) ? parse(text) : null;
    const streaming = row !== null && isStreamingRow(row);
    const out = streaming && this.held.length < MAX_HELD ? [] : this.flush();
    const held: HeldRow = { text, lineNo, parsed: row, changed: false };
    if (streaming) {
      this.collect(held, row, this.blocks, `${String((row.data as Json).turn)}.${String((row.data as Json).step)}`);
      this.held.push(held);
      return out;
    }
    // A v3/v4 message carries its whole stream: its blocks are searched within the row.
    if (row && isObject(row.data) && Array.isArray(row.data.stream)) {
      const blocks = new Map<string, Piece[]>();
      for (const entry of row.data.stream) if (isObject(entry)) this.add(blocks, `inline.${String(entry.index)}`, held, entry);
      this.mask(blocks);
    }
    out.push(written(held));
    return out;
  }

  /** Every held row, its stream searched. */
  flush(): { text: string; lineNo: number }[] {
    this.mask(this.blocks);
    const out = this.held.map(written);
    this.held = [];
    this.blocks = new Map();
    return out;
  }

  private collect(held: HeldRow, row: Json, blocks: Map<string, Piece[]>, step: string): void {
    const data = row.data as Json;
    if (row.type === 'assistant/chunk' && isObject(data.chunk)) this.add(blocks, `${step}.${String(data.chunk.index)}`, held, data.chunk);
    else this.add(blocks, `${step}.${String(data.index)}`, held, data);
  }

  private add(blocks: Map<string, Piece[]>, key: string, row: HeldRow, holder: Json): void {
    const pieces = blocks.get(key) ?? [];
    for (const field of ['texts', 'args'] as const) {
      const members = holder[field];
      if (strings(members)) members.forEach((text, member) => pieces.push({ row, holder, field, member, text }));
    }
    for (const field of ['text', 'argumentsDelta'] as const) {
      if (typeof holder[field] === 'string' && holder.type !== 'block-end') pieces.push({ row, holder, field, member: null, text: holder[field] as string });
    }
    if (pieces.length) blocks.set(key, pieces);
  }

  private mask(blocks: Map<string, Piece[]>): void {
    for (const pieces of blocks.values()) {
      const joined = pieces.map((p) => p.text).join('');
      const spans = secretSpans(joined);
      if (spans.length === 0) continue;
      // Offsets are in UTF-16 units, as the pieces' lengths are.
      const units = joined.split('');
      for (const span of spans) for (let i = span.start; i < span.end; i++) units[i] = MASK;
      let at = 0;
      for (const piece of pieces) {
        const masked = units.slice(at, at + piece.text.length).join('');
        at += piece.text.length;
        if (masked === piece.text) continue;
        if (piece.member === null) piece.holder[piece.field] = masked;
        else (piece.holder[piece.field] as string[])[piece.member] = masked;
        piece.row.changed = true;
      }
      for (const span of spans) {
        // Named after the row where the secret starts.
        let start = 0;
        const first = pieces.find((p) => (start += p.text.length) > span.start) ?? pieces[0];
        this.hit(`${span.what} (streamed)`, first.row.lineNo);
      }
    }
  }
}

function parse(text: string): Json | null {
  try {
    const row = JSON.parse(text) as unknown;
    return isObject(row) && isObject(row.data) ? row : null;
  } catch {
    return null;
  }
}

function isStreamingRow(row: Json): boolean {
  return row.type === 'assistant/chunk' || (typeof row.type === 'string' && row.type.endsWith('-chunks'));
}

function written(row: HeldRow): { text: string; lineNo: number } {
  return { text: row.changed && row.parsed ? JSON.stringify(row.parsed) : row.text, lineNo: row.lineNo };
}
