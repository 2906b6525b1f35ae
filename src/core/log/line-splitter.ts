import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';
import type { LineStore } from './line-store.ts';

/**
 * The reader's input side: decoded bytes (or text) in, whole lines out, in
 * order. It sniffs the first characters for binary input, joins a line that
 * arrives in pieces, skips a line over the limit without ever holding it as
 * one string, and (with byte tracking) knows each line's byte range. What a
 * line means is the LogReader's business (reader.ts).
 */
export interface LineSink {
  /** A whole line, without its newline; `LineSplitter.rangeStart/rangeEnd` give its bytes while tracking. */
  line(text: string): void;
  /** A line over the limit ended (its newline came): its byte offset and size; its text was never held. */
  longLine(offset: number, bytes: number): void;
}

/** A line over the limit: its byte offset, and (text mode only; with byte tracking the store knows) its bytes so far. */
interface LongLine {
  offset: number;
  bytes: number;
}

/** The characters the binary sniff looks at before any line is read. */
const SNIFF_CHARS = 1024;
const DECODE_SLICE = 32 * 1024;

export class LineSplitter {
  /** The partial last line, as the pieces it arrived in (joined once, when its newline comes). */
  private carryParts: string[] = [];
  private carryChars = 0;
  /** The open line passed the limit: its text is dropped as it arrives, only its size is counted. */
  private longLine: LongLine | null = null;
  /** Bytes of the lines too long to read that have ended. */
  private skippedBytes = 0;
  /**
   * Text mode only (no byte tracking), for the offset of a long line: the
   * earlier texts not yet measured in UTF-8 bytes (measured only when an
   * offset is asked for), the bytes before them, and a cursor into the current text.
   */
  private unmeasured: string[] = [];
  private measuredBytes = 0;
  private textCursor = { at: 0, bytes: 0 };
  private text = '';
  /** Input held back until the binary sniff has seen its first SNIFF_CHARS (chunk sizes must not matter). */
  private pending = '';
  private sniffed = false;
  /** Binary input that does not even start like JSON: nothing after the sniff is read. */
  stopped = false;
  /** The sniff's finding on binary input (null: it looks like text). */
  notText: Diagnostic | null = null;
  /** What the sniff looked at, when it stopped the read. */
  sniffedText = '';
  /** Characters of text taken in. */
  chars = 0;
  /** Byte tracking is on once input comes as bytes (pushBytes). */
  tracking = false;
  /** [start, end) bytes of the line just handed to the sink (byte tracking only). */
  rangeStart = 0;
  rangeEnd = 0;
  private readonly textDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

  constructor(private readonly lines: LineStore, private readonly maxLineChars: number, private readonly sink: LineSink) {}

  /** Decoded (plaintext) bytes: kept in the line store so lines can be parsed again. */
  pushBytes(bytes: Uint8Array): void {
    if (this.stopped) return;
    this.tracking = true;
    this.lines.add(bytes);
    // Decoded in slices: strings over V8's regular object size (128 KiB) go to large-object
    // space, which made 128 KiB–1 MiB chunks decode several times slower (measured in Node 20).
    for (let o = 0; o < bytes.length && !this.stopped; o += DECODE_SLICE) {
      const text = this.textDecoder.decode(bytes.subarray(o, o + DECODE_SLICE), { stream: true });
      if (text) this.pushText(text);
    }
    // The bytes of a line being skipped are never read again (nor any line's, when the store
    // does not keep them): let them go as they arrive, not when the line's newline comes.
    // (Only once the sniff has let text through: until then newlines in these bytes are unread.)
    if (this.sniffed && (this.longLine || !this.lines.keepsLines)) this.lines.dropOpenLine();
  }

  pushText(text: string): void {
    if (this.stopped) return;
    if (!this.sniffed) {
      // Lines wait until the sniff has decided, so the decision never depends on chunk sizes.
      this.pending += text;
      if (this.pending.length < SNIFF_CHARS) return;
      text = this.pending;
      this.pending = '';
      this.sniffBinary(text);
      if (this.stopped) return;
    }
    this.consume(text);
  }

  /** Plaintext bytes of lines too long to read (skipped, not kept), the one being skipped included. */
  get unreadBytes(): number {
    const open = this.longLine ? (this.tracking ? this.lines.byteLength - this.longLine.offset : this.longLine.bytes) : 0;
    return this.skippedBytes + open;
  }

  /**
   * The input ended: what the decoder and the sniff still held is split, then
   * the partial last line is handed back (`carry`, '' when none), or, when it
   * was too long to read, its offset and size (`partial`).
   */
  end(): { carry: string; partial: { offset: number; bytes: number } | null } {
    if (this.tracking && !this.stopped) {
      const rest = this.textDecoder.decode();
      if (rest) this.pushText(rest);
    }
    if (!this.sniffed) {
      const text = this.pending;
      this.pending = '';
      this.sniffBinary(text);
      if (!this.stopped) this.consume(text);
    }
    const carry = this.carryParts.join('');
    this.carryParts = [];
    this.carryChars = 0;
    const long = this.longLine;
    if (!long) return { carry, partial: null };
    this.longLine = null;
    const bytes = this.tracking ? this.lines.byteLength - long.offset : long.bytes;
    this.skippedBytes += bytes;
    return { carry, partial: { offset: long.offset, bytes } };
  }

  private consume(text: string): void {
    this.chars += text.length;
    if (!this.tracking) { this.text = text; this.textCursor = { at: 0, bytes: 0 }; }
    // Search only the new text: rescanning a long carried line on every chunk is quadratic.
    let nl = text.indexOf('\n');
    let start = 0;
    if (this.carryParts.length || this.longLine) {
      this.extendOpenLine(text, 0, nl < 0 ? text.length : nl);
      if (nl < 0) { this.endText(); return; }
      this.nextRange(this.longLine ? 0 : this.carryChars);
      if (this.longLine) this.closeLongLine();
      else {
        const line = this.carryParts.join('');
        this.carryParts = [];
        this.carryChars = 0;
        this.sink.line(line);
      }
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    while (nl >= 0) {
      this.nextRange(nl - start);
      if (nl - start > this.maxLineChars) {
        this.longLine = { offset: this.tracking ? this.rangeStart : this.textOffset(start), bytes: this.tracking ? 0 : utf8Length(text, start, nl) };
        this.closeLongLine();
      } else {
        this.sink.line(text.slice(start, nl));
      }
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    if (start < text.length) this.extendOpenLine(text, start, text.length);
    this.endText();
  }

  /** Adds text[from, to) to the open line; past the limit, the line's text is dropped and only counted. */
  private extendOpenLine(text: string, from: number, to: number): void {
    const n = to - from;
    if (n === 0) return;
    if (!this.longLine && this.carryChars + n > this.maxLineChars) {
      const carried = this.tracking ? 0 : this.carryParts.reduce((sum, part) => sum + utf8Length(part), 0);
      const offset = this.tracking ? this.lines.openLineStart : this.carryParts.length ? this.bytesBeforeText() - carried : this.textOffset(from);
      this.longLine = { offset, bytes: carried };
      this.carryParts = [];
      this.carryChars = 0;
    }
    if (this.longLine) {
      if (!this.tracking) this.longLine.bytes += utf8Length(text, from, to);
    } else {
      this.carryParts.push(from === 0 && to === text.length ? text : text.slice(from, to));
      this.carryChars += n;
    }
  }

  /** UTF-8 bytes of the text-mode input before the current text (measuring what was not yet). */
  private bytesBeforeText(): number {
    for (const t of this.unmeasured) this.measuredBytes += utf8Length(t);
    this.unmeasured = [];
    return this.measuredBytes;
  }

  /** UTF-8 offset of `text[at]` in text mode (calls come in increasing `at`, so the count is linear). */
  private textOffset(at: number): number {
    const c = this.textCursor;
    if (at < c.at) { c.at = 0; c.bytes = 0; }
    c.bytes += utf8Length(this.text, c.at, at);
    c.at = at;
    return this.bytesBeforeText() + c.bytes;
  }

  private endText(): void {
    if (this.tracking) return;
    this.unmeasured.push(this.text);
    // Many small pushes: measure as they come rather than hold them all.
    if (this.unmeasured.length > 64) this.bytesBeforeText();
    this.text = '';
  }

  /** The long line's newline came: it is a row no one can read. */
  private closeLongLine(): void {
    const long = this.longLine!;
    this.longLine = null;
    // With byte tracking the line's range is exact.
    const bytes = this.tracking ? this.rangeEnd - long.offset : long.bytes;
    this.skippedBytes += bytes;
    this.sink.longLine(long.offset, bytes);
  }

  /** `chars`: the ended line's length in the text (its bytes are at least as many). */
  private nextRange(chars: number): void {
    if (!this.tracking) return;
    this.lines.nextLine(chars);
    this.rangeStart = this.lines.lastStart;
    this.rangeEnd = this.lines.lastEnd;
  }

  /** A dropped image or PDF should say so, not produce a wall of JSON errors. */
  private sniffBinary(text: string): void {
    this.sniffed = true;
    const head = text.slice(0, SNIFF_CHARS);
    // eslint-disable-next-line no-control-regex
    const controls = (head.match(/[\u0000-\u0008\u000e-\u001f\ufffd]/g) ?? []).length;
    if (controls <= 4) return;
    this.notText = diagnostic('bytes.not-text', 'The file does not look like a JSONL log (binary content). Is it the right file?', { line: 1 });
    // Binary that does not even start like a JSON object (an image, a PDF, a 1 GB blob): read no further.
    if (!/^\ufeff?\s*\{/.test(head)) {
      this.stopped = true;
      this.sniffedText = head;
      this.notText.message += ` Reading stopped after the first ${SNIFF_CHARS} characters.`;
    }
  }
}

/** UTF-8 bytes of s[from, to). */
export function utf8Length(s: string, from = 0, to = s.length): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) { n += 4; i++; }
    else n += 3;
  }
  return n;
}
