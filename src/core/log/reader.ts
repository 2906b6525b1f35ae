import { diagnostic, type Diagnostic, type DiagnosticCode, type Where } from '../diagnostics/diagnostic.ts';
import { decodeBytes, type ByteSource, type DecodeInfo } from './bytes.ts';
import { checkEnvelope } from './envelope.ts';
import { dialectOf, isPluginRecordType, knownEventTypes, PACKED_ROW_TYPES } from './event-types.ts';
import { checkHeader } from './header.ts';
import { LegacyUpgrader } from './legacy.ts';
import { checkPackedRow, runMember, type PackedRun } from './packed-rows.ts';
import { checkCatalogShape, checkPayloadVersion, hasNewerPayloadChecks, payloadCheckOf, type PayloadCheck } from './payloads.ts';
import { decodeSourceEventSeqs } from './source-seqs.ts';
import { LineSplitter, utf8Length } from './line-splitter.ts';
import { LineStore } from './line-store.ts';
import type { ByteReader } from './read-back.ts';
import { zstdReadBack } from './zstd-read-back.ts';
import { stoppedAt } from './load-stopped.ts';
import type { Dialect, EventOrigin, LogEvent, ReadMeta, ReadResult, ScanStats, SessionHeader, TornTail } from './types.ts';
import { MAX_ROW_DEPTH, PARSE_BEFORE_DEPTH_CHARS, surfaceFieldOf, textNestsDeeperThan, tooDeep, unknownTypeMessage } from './row-checks.ts';
import { grownTo } from '../util/typed.ts';

export { MAX_ROW_DEPTH } from './row-checks.ts';

/**
 * Rows after a bad row are provisional: DSH calls the region corrupt only if
 * a later record decodes to `turn/end`; otherwise the bad row and everything
 * after it is an unacknowledged torn tail (dsh-log-rules L1.8).
 */
interface OpenBadRegion {
  line: number;
  /** Decoded byte offset where the region's first row starts (byte tracking only; else 0). */
  startByte: number;
  /** Events accepted after the bad row: committed by a later turn/end, else dropped as the torn tail. */
  pending: AcceptedEvent[];
  diagnosticCount: number;
  rejectedCount: number;
  /** The region's rows as text ('' for a line too long to read). */
  texts: string[];
  /** Lines in the region too long to read: not in `texts`, but part of a torn tail. */
  unread: UnreadLine[];
}

/** An event the reader placed, with the byte range of its line (for re-parsing it later). */
export interface AcceptedEvent {
  event: LogEvent;
  origin: EventOrigin;
  start: number;
  end: number;
  /** Re-parsing the line gives this event back (not numbered, not upgraded). */
  exact: boolean;
}

export interface ReaderOptions {
  /** Keep every event as an object in the result (default true). */
  retainEvents?: boolean;
  /** Called with each committed event, in order (the reader knows the header by then). */
  onEvent?: (accepted: AcceptedEvent, reader: LogReader) => void;
  /** Where pushBytes keeps the decoded bytes (to re-parse lines later). */
  lines?: LineStore;
  /** Without `lines`: told of each chunk as the reader's own store lets it go (LineStore's `onLetGo`). */
  onLetGo?: (chunk: Uint8Array) => void;
  /**
   * Called instead of onEvent for a clean packed row (in order, not
   * retained): a run of chunk deltas the caller can take in bulk.
   */
  onRun?: (run: PackedRun, line: number, start: number, end: number, reader: LogReader) => void;
  /**
   * Longest line read, in characters (default MAX_LINE_CHARS). A longer line
   * is skipped as it streams in, never held as one string; tests set it low.
   */
  maxLineChars?: number;
  /**
   * Check each event's payload against its schema (default true). A payload
   * finding never changes which events are committed, so a reader whose
   * findings nobody reads (the projection helper's) may leave them out.
   */
  checkPayloads?: boolean;
  /**
   * Lines the caller does not need (the projection helper's chunk lines no
   * unit reads, a folder search's lines that cannot match): asked of each
   * row after the first event row, in a file whose rows carry their seqs,
   * while no bad row is open; such a line is counted, not parsed, and places
   * no event. The next row's seq is then taken as the one expected (the
   * skipped line held an unknown number of events). Whoever trusts the result
   * checks the skipped lines against a full read (projections/chunk-skip.ts).
   */
  skipLine?: (text: string) => boolean;
}

/**
 * The engine's own copy of a string, the one its literals and property keys
 * share (a property key is interned; a value JSON.parse makes is not): the
 * code's `event.type === 'turn/end'` is then a pointer comparison either way.
 */
function internalized(text: string): string {
  const holder: Record<string, true> = { [text]: true };
  for (const key in holder) return key;
  return text;
}

/** One event type as the reader sees it in the log's dialect. */
interface TypeFacts {
  /** The type string itself, interned, one instance per type: rows are given it (see record). */
  type: string;
  /** A packed row type (V0/V1 chunk runs). */
  packed: boolean;
  /** In the dialect's vocabulary. */
  known: boolean;
  /** Its payload check (null: the core has no schema for it). */
  payload: PayloadCheck | null;
  /** Whether a payload version or catalog shape check applies. */
  newerChecks: boolean;
}

/**
 * Longest line the reader joins into one string: just under V8's string
 * limit (2^29 - 24 characters), past which no JavaScript reader — DSH
 * included — can hold the line at all.
 */
export const MAX_LINE_CHARS = 2 ** 29 - 1024;

export interface ReadProgress {
  bytesIn: number;
  lines: number;
  events: number;
  /** Plaintext bytes decoded so far. */
  decodedBytes: number;
  /** Of those, bytes of lines too long to read: skipped, not kept. */
  skippedBytes: number;
  /** The lines' bytes are read back from the file, not kept (a dropped file, plain or zstd): the load holds none of them. */
  readBack?: true;
}

/** A line that was too long to read, as the torn tail and findings describe it. */
interface UnreadLine {
  line: number;
  offset: number;
  bytes: number;
}

/**
 * Incremental log reader: feed decoded text with `pushText` (or bytes with
 * `pushBytes`), then `finish`. The line splitter (line-splitter.ts) cuts the
 * input into lines; this class checks each row and places its events.
 * Pure apart from its own state; the same instance backs the worker, the CLI
 * and the tests.
 */
export class LogReader {
  /** Whether rows carry no seq/time (a normalized snapshot); the first event row decides. */
  private unnumbered: boolean | undefined = undefined;
  private firstNumberedLine: number | undefined = undefined;
  private reportedMixed = false;
  private lineNo = 0;
  private header: SessionHeader | null = null;
  private sawHeader = false;
  private version = 0;
  private dialect: Dialect = 'v0';
  private known: ReadonlySet<string> = knownEventTypes('v0');
  /** What the reader needs to know of each event type, looked up once per event (a type string hashed once, not per table). */
  private typeFacts = new Map<string, TypeFacts>();
  private readonly events: LogEvent[] = [];
  private readonly origins: EventOrigin[] = [];
  /** Accepted so far, committed or provisional: the next seq and row numbering follow these. */
  private acceptedCount = 0;
  /** The next row's expected seq is one past this (-1 before any: seqs start at 0). */
  private lastAcceptedSeq = -1;
  private committedCount = 0;
  private sawInheritedEndSeed = false;
  private readonly retainEvents: boolean;
  private readonly onEvent: ReaderOptions['onEvent'];
  private readonly onRun: ReaderOptions['onRun'];
  /** Where the decoded bytes are kept (to re-parse lines later), the caller's or the reader's own. */
  private readonly lines: LineStore;
  private readonly maxLineChars: number;
  /** Bytes → lines (line-splitter.ts): it hands each whole line to `line`, each unreadable one to `unreadLine`. */
  private readonly splitter: LineSplitter;
  private readonly diagnostics: Diagnostic[] = [];
  private readonly rejectedRows: ReadResult['rejectedRows'] = [];
  private openBad: OpenBadRegion | null = null;
  private numberedRows = 0;
  private blankLines = 0;
  private crlf = false;
  private physicalRows = 0;
  private lastTime = 0;
  private legacy = new LegacyUpgrader('', 'v0');
  private readonly checkPayloads: boolean;
  private readonly skipLine: ((text: string) => boolean) | undefined;
  /** Line numbers of the rows skipped (skipLine), ascending. */
  private skipped = new Uint32Array(0);
  private skippedCount = 0;
  /** A row was skipped: the next row's seq is the one expected. */
  private resync = false;

  constructor(private readonly extraDiagnostics: Diagnostic[] = [], options: ReaderOptions = {}) {
    this.retainEvents = options.retainEvents ?? true;
    this.onEvent = options.onEvent;
    this.onRun = this.retainEvents ? undefined : options.onRun;
    this.lines = options.lines ?? new LineStore(false, undefined, options.onLetGo);
    this.maxLineChars = options.maxLineChars ?? MAX_LINE_CHARS;
    this.splitter = new LineSplitter(this.lines, this.maxLineChars, { line: (text) => this.line(text), longLine: (offset, bytes) => this.unreadLine(offset, bytes) });
    this.checkPayloads = options.checkPayloads ?? true;
    this.skipLine = options.skipLine;
  }

  /** The line numbers of the rows `skipLine` skipped, ascending. */
  skippedLines(): Uint32Array {
    return this.skipped.slice(0, this.skippedCount);
  }

  get eventCount(): number {
    return this.committedCount;
  }

  /** The seq of the last event placed (-1 before any). */
  get lastSeq(): number {
    return this.lastAcceptedSeq;
  }

  get sessionHeader(): SessionHeader | null {
    return this.header;
  }
  get formatVersion(): number {
    return this.version;
  }
  get logDialect(): Dialect {
    return this.dialect;
  }

  /** The input ended: its line store (the caller's or its own) lets go of what it no longer needs. */
  readEnded(): void {
    this.lines.readEnded();
  }

  /** Decoded (plaintext) bytes: kept in the line store so lines can be parsed again. */
  pushBytes(bytes: Uint8Array): void {
    this.splitter.pushBytes(bytes);
  }

  pushText(text: string): void {
    this.splitter.pushText(text);
  }

  /** Plaintext bytes of lines too long to read (skipped, not kept), the one being skipped included. */
  get unreadBytes(): number {
    return this.splitter.unreadBytes;
  }
  get lineCount(): number {
    return this.lineNo;
  }
  /**
   * Decoded bytes not committed yet (byte tracking only): the line still
   * waiting for its newline, and rows after a bad row that no later
   * turn/end has committed. A follower shows them as pending; `finish`
   * turns them into the torn tail (L1.8).
   */
  get pendingBytes(): number {
    const from = this.openBad ? this.openBad.startByte : this.lines.openLineStart;
    return Math.max(0, this.lines.byteLength - from);
  }

  /** The findings of the committed rows so far (a provisional bad region's are left out: they may yet be a torn tail). */
  committedDiagnostics(): Diagnostic[] {
    return this.diagnostics.slice(0, this.openBad ? this.openBad.diagnosticCount : this.diagnostics.length);
  }

  /**
   * What is read so far of a log still being written, without ending the
   * read: its committed rows only (a provisional bad region and the line
   * waiting for its newline are pending, not a torn tail), and none of the
   * findings `finish` adds about the input as a whole.
   */
  committedMeta(encoding: ScanStats['encoding'] = 'plain'): ReadMeta {
    const committedBytes = this.splitter.tracking ? this.lines.byteLength - this.pendingBytes : this.splitter.chars;
    return {
      header: this.header,
      version: this.version,
      dialect: this.dialect,
      diagnostics: [...this.extraDiagnostics, ...this.committedDiagnostics()],
      tornTail: null,
      scan: { totalBytes: committedBytes, committedBytes, physicalRows: this.physicalRows, encoding },
      rejectedRows: this.rejectedRows.slice(0, this.openBad ? this.openBad.rejectedCount : this.rejectedRows.length),
    };
  }

  /** The input is binary and does not start like JSON: the caller may stop feeding it. */
  get looksBinary(): boolean {
    return this.splitter.stopped;
  }

  /** A line too long to read ended: a row no one can read, kept aside by its size. */
  private unreadLine(offset: number, bytes: number): void {
    const line = ++this.lineNo;
    const unread: UnreadLine = { line, offset, bytes };
    this.physicalRows++;
    const message = `line ${line} is too long to read: ${bytes} bytes from byte ${offset}, over the ${this.maxLineChars}-character line limit; skipped without reading it. ` +
      'DSH cannot hold a line past the JavaScript string limit either: a line it cannot parse is corruption when a later turn/end commits it, otherwise a torn tail (dsh-log-rules L1.8)';
    if (!this.sawHeader) {
      this.sawHeader = true;
      this.readHeader(undefined, line, null);
      this.diag('row.too-long', message, { line });
    } else {
      this.openBad?.texts.push('');
      this.bad('row.too-long', message, line, null, {}, unread);
    }
    // Kept aside like any row that cannot be placed, without its text.
    this.rejectedRows.push({ line, text: '', unreadBytes: bytes });
  }

  finish(encoding: ScanStats['encoding'] = 'plain', totalBytes?: number): ReadResult {
    const { carry, partial } = this.splitter.end();
    const tornParts: string[] = [];
    const unread: UnreadLine[] = [];
    let tornRows = 0;
    const tornLine = this.openBad ? this.openBad.line : this.lineNo + 1;
    if (this.openBad) {
      const bad = this.openBad;
      this.diagnostics.length = bad.diagnosticCount;
      this.rejectedRows.length = bad.rejectedCount;
      tornParts.push(bad.texts.join('\n') + '\n');
      tornRows = bad.texts.length;
      unread.push(...bad.unread);
      this.openBad = null;
    }
    if (carry) {
      tornParts.push(carry);
      this.lineNo++;
    }
    // A partial last line too long to read: torn like any partial line, its text never held.
    if (partial) unread.push({ line: ++this.lineNo, offset: partial.offset, bytes: partial.bytes });
    // Where the decoded text stopped: byte-level findings (a corrupt or torn frame) point there.
    const stopLine = carry || partial ? this.lineNo : this.lineNo + 1;
    let tornTail: TornTail | null = null;
    if (tornParts.length || partial) {
      const text = tornParts.join('');
      const unreadBytes = unread.reduce((n, u) => n + u.bytes, 0);
      tornTail = { bytes: utf8Length(text) + unreadBytes, rows: tornRows, text };
      const what = tornRows ? `, ${tornRows} unacknowledged row(s) with no later turn/end` : ', a partial last line';
      const long = unread.length ? `; ${unread.map((u) => `line ${u.line} (${u.bytes} bytes from byte ${u.offset})`).join(', ')} too long to read` : '';
      this.diagnostics.push(diagnostic('tail.torn',
        `Torn tail ignored (${tornTail.bytes} bytes${what}${long}); DSH drops it on restore`,
        { line: tornLine }));
    }
    this.checkForkCut();
    if (this.splitter.notText) this.diagnostics.unshift(this.splitter.notText);
    if (this.splitter.stopped) this.diagnostics.push(diagnostic('header.missing', 'corrupt session log: first line is not a session header', { line: 1 }));
    else if (!this.sawHeader) this.diagnostics.push(diagnostic('bytes.empty', 'The log is empty: no session header line.', { line: 1 }));
    if (this.numberedRows) this.diagnostics.push(diagnostic('row.numbered', `${this.numberedRows} row(s) carry no seq/time (a normalized snapshot); numbered by position`));
    if (this.blankLines) this.diagnostics.push(diagnostic('bytes.blank-lines', `${this.blankLines} blank line(s) skipped`));
    if (this.crlf) this.diagnostics.push(diagnostic('bytes.crlf', 'Lines end in CRLF; the CR was stripped'));
    // A stopped read reports only what it looked at, so the result does not depend on chunking.
    const total = this.splitter.stopped ? utf8Length(this.splitter.sniffedText) : totalBytes ?? this.splitter.chars;
    return {
      header: this.header,
      version: this.version,
      dialect: this.dialect,
      events: this.events,
      origins: this.origins,
      diagnostics: [...this.extraDiagnostics.map((d) => (d.line === undefined ? { ...d, line: stopLine } : d)), ...this.diagnostics],
      tornTail,
      scan: { totalBytes: total, committedBytes: total - (tornTail?.bytes ?? 0), physicalRows: this.physicalRows, encoding },
      rejectedRows: this.rejectedRows,
    };
  }

  private line(text: string): void {
    const line = ++this.lineNo;
    if (text.charCodeAt(text.length - 1) === 13) {
      text = text.slice(0, -1);
      this.crlf = true;
    }
    if (line === 1 && text.charCodeAt(0) === 0xfeff) {
      text = text.slice(1);
      this.diagnostics.push(diagnostic('bytes.bom', 'A UTF-8 byte-order mark was skipped', { line }));
    }
    // Only a line starting with whitespace can be blank; avoid trimming every row.
    if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === '')) {
      this.blankLines++;
      return;
    }
    this.physicalRows++;
    // Not in a file whose rows are numbered by position (a normalized snapshot): a skipped one would move every later seq.
    if (this.skipLine !== undefined && this.sawHeader && !this.openBad && this.unnumbered === false && this.skipLine(text)) {
      if (this.skippedCount === this.skipped.length) this.skipped = grownTo(this.skipped, Math.max(1024, this.skippedCount * 2));
      this.skipped[this.skippedCount++] = line;
      this.resync = true;
      return;
    }
    this.openBad?.texts.push(text);
    let row: unknown;
    let problem: [DiagnosticCode, string] | null = null;
    // A line of up to PARSE_BEFORE_DEPTH_CHARS is parsed first and its nesting checked after: checking
    // first made the young generation's collections copy about twice the survivors for the whole
    // load (V8 in Node 20, a 1M-event rc.8 log: 80–120 → 30–40 ms of GC in the reader alone). A
    // longer line is scanned first, so a pathological one (megabytes of brackets) is never parsed.
    const scanFirst = text.length > PARSE_BEFORE_DEPTH_CHARS;
    if (scanFirst && textNestsDeeperThan(text, MAX_ROW_DEPTH)) {
      problem = tooDeep(line, text);
    } else {
      try {
        row = JSON.parse(text);
      } catch (err) {
        // Also a line too long for the engine to hold as a value.
        problem = ['row.unparsable', `line ${line} is not valid JSON: ${(err as Error).message}`];
      }
      // Too deep wins over unparsable, as when it is scanned first.
      if (!scanFirst && textNestsDeeperThan(text, MAX_ROW_DEPTH)) {
        row = undefined;
        problem = tooDeep(line, text);
      }
    }
    if (!this.sawHeader) {
      this.sawHeader = true;
      this.readHeader(problem ? undefined : row, line, text);
      if (problem) this.diag(problem[0], problem[1], { line });
      return;
    }
    if (problem) {
      this.bad(problem[0], problem[1], line, text);
      return;
    }
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      this.bad('row.not-object', `line ${line} is not a JSON object`, line, text);
      return;
    }
    this.record(row as Record<string, unknown>, line, text);
  }

  private readHeader(value: unknown, line: number, text: string | null): void {
    const check = checkHeader(value, line);
    this.header = check.header;
    this.version = check.version;
    this.dialect = dialectOf(check.version);
    this.known = knownEventTypes(this.dialect);
    this.typeFacts = new Map();
    this.lastTypeFacts = null;
    this.legacy = new LegacyUpgrader(typeof check.header?.id === 'string' ? check.header.id : '', this.dialect);
    this.diagnostics.push(...check.diagnostics);
    if (!check.header) {
      // The first line may be an event row of a header-less file: read it as one.
      if (value && typeof value === 'object' && !Array.isArray(value)) this.record(value as Record<string, unknown>, line, text ?? '');
      // Neither a header nor an event: keep the line, as every rejected row is kept (a line too long to read is kept by its caller).
      else if (text !== null) this.rejectedRows.push({ line, text });
    }
  }

  /** The fork cut (L1.7, E16): V2+ isSeeded ⇔ a tagged end-seed; the inherited count fits the log. */
  private checkForkCut(): void {
    const h = this.header;
    if (!h) return;
    if (this.version >= 2) {
      const tagged = this.sawInheritedEndSeed;
      if (h.isSeeded === true && !tagged) this.diag('header.seed', 'Seeded session lacks its inherited end-seed marker (isSeeded without a session/end-seed {inherited:true})', { line: 1, path: 'header.isSeeded' });
      if (h.isSeeded === false && tagged) this.diag('header.seed', 'Unseeded session carries an inherited end-seed marker', { line: 1, path: 'header.isSeeded' });
    } else if (typeof h.seedLength === 'number' && h.seedLength > this.committedCount) {
      this.diag('header.seed', `header seedLength ${h.seedLength} exceeds the ${this.committedCount} events in the log`, { line: 1, path: 'header.seedLength' });
    }
  }

  private record(row: Record<string, unknown>, line: number, text: string): void {
    // Each row's type is a new string from JSON.parse; giving the row the one instance of its type
    // (an equal string) lets every later lookup by type (the walk's, the index's, the units') reuse
    // that instance's hash and compare by identity, instead of hashing a new string at each.
    const rowFacts = typeof row.type === 'string' ? this.factsOf(row.type) : null;
    if (rowFacts) row.type = rowFacts.type;
    if (this.resync) {
      // After a skipped row, this row's seq is the expected one (a wrong guess is the checker's to find).
      this.resync = false;
      const seq = rowFacts?.packed ? row.seq0 : row.seq;
      if (Number.isSafeInteger(seq)) this.lastAcceptedSeq = (seq as number) - 1;
    }
    if (rowFacts?.packed) {
      // Packed rows exist only in V0/V1 files; V2+ embeds streams instead (L1.6).
      const check = this.version <= 1 ? checkPackedRow(row) : { ok: false as const, reason: `format ${this.version} has no packed rows` };
      if (!check.ok) {
        this.bad('row.packed', `packed ${row.type} row at line ${line} is malformed: ${check.reason}`, line, text);
        return;
      }
      const { run } = check;
      const expected = this.lastAcceptedSeq + 1;
      if (this.onRun && !this.openBad && run.seq0 === expected) {
        // The common case in bulk: chunk deltas need no upgrade or payload check, and their seqs follow on.
        const n = run.pieces.length;
        this.lastTime = run.times[n - 1];
        this.lastAcceptedSeq = run.seq0 + n - 1;
        this.acceptedCount += n;
        this.committedCount += n;
        this.onRun(run, line, this.splitter.rangeStart, this.splitter.rangeEnd, this);
        return;
      }
      for (let k = 0; k < run.pieces.length; k++) this.accept(runMember(run, k), { line, packedIndex: k }, text);
      return;
    }
    // Normalized snapshot files omit seq/time on every row: number them. The
    // first event row tells; in a file with seqs a row without one is an error.
    const noSeq = !Object.hasOwn(row, 'seq');
    this.unnumbered ??= noSeq;
    let exact = true;
    if (noSeq && this.unnumbered) {
      exact = false;
      row = { ...row, seq: this.acceptedCount, ...(Object.hasOwn(row, 'time') ? {} : { time: this.lastTime }) };
      this.numberedRows++;
      this.firstNumberedLine ??= line;
    } else if (!noSeq && this.unnumbered && !this.reportedMixed) {
      // Not a snapshot after all: the rows numbered so far were missing their seq.
      this.reportedMixed = true;
      this.diag('row.envelope', `Invalid envelope at line ${this.firstNumberedLine}: no seq, but later rows carry one (first at line ${line}); the rows without seq were numbered by position`, { line: this.firstNumberedLine ?? line, path: 'seq' });
    } else if (noSeq) {
      this.bad('row.envelope', `Invalid envelope at line ${line}: seq is required (earlier rows carry seqs)`, line, text, { path: 'seq' });
      return;
    }
    const envelope = checkEnvelope(row);
    const seqValue = row.seq;
    if (!envelope.ok) {
      this.bad('row.envelope', `Invalid envelope at line ${line}${typeof seqValue === 'number' ? ` (seq ${seqValue})` : ''}: ${envelope.reason}`, line, text, { path: envelope.path, seq: typeof seqValue === 'number' ? seqValue : undefined });
      return;
    }
    if (!Number.isSafeInteger(seqValue) || (seqValue as number) < 0) {
      this.bad('row.envelope', `Invalid envelope at line ${line}: seq must be a non-negative safe integer`, line, text, { path: 'seq' });
      return;
    }
    const event = row as unknown as LogEvent;
    if (row.sourceEventSeqs !== undefined) {
      const decoded = decodeSourceEventSeqs(row.sourceEventSeqs, event.seq);
      if (typeof decoded === 'string') {
        this.bad('row.source-seqs', `sourceEventSeqs at line ${line} (seq ${event.seq}): ${decoded}`, line, text, { seq: event.seq, path: 'sourceEventSeqs' });
        return;
      }
      event.sourceEventSeqs = decoded;
    }
    this.accept(event, { line }, text, exact);
  }

  /** Places one logical event: seq contiguity, legacy upgrade, vocabulary, payload. */
  private accept(raw: LogEvent, origin: EventOrigin, text: string, exact = true): void {
    const expected = this.lastAcceptedSeq + 1;
    const { line } = origin;
    if (raw.seq < expected) {
      this.bad('row.seq-duplicate', `seq ${raw.seq} at line ${line} repeats or goes back (expected ${expected}); row kept aside`, line, text, { seq: raw.seq });
      if (origin.packedIndex === undefined || origin.packedIndex === 0) this.rejectedRows.push({ line, text });
      return;
    }
    if (raw.seq > expected) {
      // DSH's own wording counts records from 0 with the header as record 0.
      this.bad('row.seq-gap', `corrupt session log: seq gap in committed region at line ${line - 1} (expected ${expected}, got ${raw.seq})`, line, text, { seq: raw.seq });
    }
    const upgraded = this.legacy.upgrade(raw);
    const event = upgraded.event;
    if (upgraded.legacy) {
      origin = { ...origin, legacy: upgraded.legacy };
      this.diag('legacy.upgraded', `${upgraded.note} (seq ${event.seq})`, { line, seq: event.seq });
    }
    if (upgraded.refusal) this.diag('type.retired', `session contains ${upgraded.refusal} at seq ${event.seq}`, { line, seq: event.seq });
    const facts = this.factsOf(event.type);
    if (!facts.known) {
      // A plugin record is known as such: opaque, log-only, never a finding (V4.3).
      if (event.ignorable) {
        if (!isPluginRecordType(event.type)) this.diag('type.unknown-ignorable', `Unknown ignorable event type ${event.type} at seq ${event.seq}; shown as opaque`, { line, seq: event.seq });
      } else {
        // The path names the field through which it could change the surface (V7); none: log-only.
        const field = surfaceFieldOf(event);
        this.diag('type.unknown-required', unknownTypeMessage(event, this.dialect, this.version), { line, seq: event.seq, subject: event.type, ...(field ? { path: field } : {}) });
      }
    } else if (origin.packedIndex === undefined && this.checkPayloads) {
      // Expanded packed members were validated by the expansion itself.
      const problem = facts.payload?.(event) ?? null;
      if (problem) this.diag('payload.schema', `${event.type} at seq ${event.seq}: ${problem.message}`, { line, seq: event.seq, path: problem.path });
      else if (facts.newerChecks) this.checkNewerPayload(event, line);
    }
    this.lastTime = event.time;
    this.lastAcceptedSeq = event.seq;
    this.acceptedCount++;
    const accepted: AcceptedEvent = { event, origin, start: this.splitter.rangeStart, end: this.splitter.rangeEnd, exact: exact && event === raw };
    const bad = this.openBad;
    if (!bad) {
      this.commit(accepted);
      return;
    }
    bad.pending.push(accepted);
    if (event.type === 'turn/end') {
      // A later turn/end: the bad region was corruption, not a torn tail; what followed it stands.
      this.openBad = null;
      for (const a of bad.pending) this.commit(a);
    }
  }

  private lastType = '';
  private lastTypeFacts: TypeFacts | null = null;
  private factsOf(type: string): TypeFacts {
    // Runs of one type are common (chunk deltas): comparing with the last type is cheaper than a hash lookup.
    if (type === this.lastType && this.lastTypeFacts) return this.lastTypeFacts;
    let facts = this.typeFacts.get(type);
    if (!facts) {
      facts = { type: internalized(type), packed: PACKED_ROW_TYPES.has(type), known: this.known.has(type), payload: payloadCheckOf(type, this.dialect), newerChecks: hasNewerPayloadChecks(type) };
      this.typeFacts.set(type, facts);
    }
    this.lastType = type;
    this.lastTypeFacts = facts;
    return facts;
  }

  /** Payload versions a newer DSH may add at format 4, and catalog shapes DSH does not check (V4.1–V4.2). */
  private checkNewerPayload(event: LogEvent, line: number): void {
    const version = checkPayloadVersion(event);
    if (version) {
      const subject = `${event.type} payload version ${String(event.data.version)}`;
      this.diag('payload.unknown-version', `${version.message} at seq ${event.seq}; analyses that read it are partial from here`, { line, seq: event.seq, path: version.path, subject });
      return;
    }
    const shape = checkCatalogShape(event, this.dialect);
    if (shape) this.diag('payload.shape', `${event.type} at seq ${event.seq}: ${shape.message}`, { line, seq: event.seq, path: shape.path });
  }

  private commit(accepted: AcceptedEvent): void {
    const { event } = accepted;
    this.committedCount++;
    if (event.type === 'session/end-seed' && event.data?.inherited === true) this.sawInheritedEndSeed = true;
    if (this.retainEvents) {
      this.events.push(event);
      this.origins.push(accepted.origin);
    }
    this.onEvent?.(accepted, this);
  }

  private diag(code: DiagnosticCode, message: string, where: Where): void {
    this.diagnostics.push(diagnostic(code, message, where));
  }

  /** A row that cannot be placed; `text` null for a line too long to read (its size is in `unread`). */
  private bad(code: DiagnosticCode, message: string, line: number, text: string | null, where: { seq?: number; path?: string } = {}, unread?: UnreadLine): void {
    if (!this.openBad) {
      this.openBad = {
        line,
        startByte: this.splitter.rangeStart,
        pending: [],
        diagnosticCount: this.diagnostics.length,
        rejectedCount: this.rejectedRows.length,
        texts: [text ?? ''],
        unread: [],
      };
    }
    if (unread) this.openBad.unread.push(unread);
    this.diag(code, message, { line, ...where });
    if (text !== null && code !== 'row.seq-gap' && code !== 'row.seq-duplicate') this.rejectedRows.push({ line, text });
  }
}

/** Reads a whole log held as text (tests, CLI, pasted text). */
export function readLogText(text: string, options: Pick<ReaderOptions, 'maxLineChars'> = {}): ReadResult {
  const reader = new LogReader([], options);
  reader.pushText(text);
  return reader.finish('plain', utf8Length(text));
}

export interface ReadLogOptions extends ReaderOptions {
  /** Called once with the reader and what decoding finds out (the encoding), before any input: a follower reads its pending bytes and findings as the log grows. */
  onReader?: (reader: LogReader, info: DecodeInfo) => void;
  onProgress?: (p: ReadProgress) => void;
  /** Called between chunks; return true to stop reading (cancel). Gets the reader, so a caller can stop once it has seen enough (a file that is not a log). */
  cancelled?: (reader: LogReader) => boolean;
  /**
   * Called between chunks: a promise to wait for lets the host answer
   * other requests meanwhile (a stream's chunks may all come as microtasks,
   * which never let a worker's message handler run).
   */
  pause?: () => Promise<void> | null;
  /**
   * The source's file, to read lines back from instead of keeping their
   * bytes in `lines`: a plain log's directly, a zstd log's through its
   * frames (a gzip log's bytes are kept: its stream cannot be entered
   * part-way).
   */
  readBack?: ByteReader;
}

/** Reads a log from a byte stream (file, fetch body, zstd/gzip/plain). */
export async function readLog(source: ByteSource, options: ReadLogOptions = {}): Promise<ReadResult> {
  const byteDiagnostics: Diagnostic[] = [];
  const reader = new LogReader(byteDiagnostics, options);
  const info: DecodeInfo = { decodedBytes: 0 };
  options.onReader?.(reader, info);
  let bytesIn = 0;
  // Whatever throws (a bug in a rider, the source failing) stops the load with a finding that says where.
  const where = () => ({ ...(reader.lineCount > 0 ? { line: reader.lineCount } : {}), ...(reader.lastSeq >= 0 ? { seq: reader.lastSeq } : {}) });
  try {
    let readBack = options.readBack;
    // The reader keeps bytes only in its line store, which copies reused ones: zstd frames may share one arena.
    for await (const bytes of decodeBytes(source, byteDiagnostics, (p) => { bytesIn = p.bytesIn; }, info, { reuse: true })) {
      if (options.cancelled?.(reader)) break;
      if (readBack) {
        // A plain log's offsets are the file's; a zstd log's lines are read back through its frames (while they can be).
        if (info.encoding === 'plain') options.lines?.readBackFrom(readBack);
        else if (info.encoding === 'zstd' && info.frames) options.lines?.readBackFrom(zstdReadBack(readBack, info.frames));
        readBack = undefined;
      }
      reader.pushBytes(bytes);
      options.onProgress?.({ bytesIn, lines: reader.lineCount, events: reader.eventCount, decodedBytes: info.decodedBytes, skippedBytes: reader.unreadBytes, ...(options.lines?.readsBackAll ? { readBack: true as const } : {}) });
      // A dropped image or a 1 GB binary: stop at the first chunk instead of reading it all as bad rows.
      if (reader.looksBinary) break;
      const paused = options.pause?.();
      if (paused) await paused;
    }
    const result = reader.finish(info.encoding ?? 'plain', info.decodedBytes);
    reader.readEnded();
    return result;
  } catch (err) {
    throw stoppedAt(err, where());
  }
}
