import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';
import { concatBytes } from '../util/bytes.ts';
import type { ScanStats } from './types.ts';
import { zstdFrames } from './zstd-decode.ts';
import { ZstdFrameIndex } from './zstd-read-back.ts';

/**
 * Bytes → text. DSH writes raw JSONL or concatenated zstd frames (dsh-log-rules L1.4);
 * users also hand us gzip. We decide by content (magic bytes), never by the
 * file name, and decode incrementally so the caller can report progress and
 * never holds the file as one string.
 */
export type Encoding = ScanStats['encoding'];

const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];
const GZIP_MAGIC = [0x1f, 0x8b];

export function sniffEncoding(head: Uint8Array): Encoding {
  if (ZSTD_MAGIC.every((b, i) => head[i] === b)) return 'zstd';
  if (GZIP_MAGIC.every((b, i) => head[i] === b)) return 'gzip';
  return 'plain';
}

export interface DecodeInfo {
  encoding?: Encoding;
  /** Plaintext bytes produced so far. */
  decodedBytes: number;
  /** A zstd log's frames, as they are decoded (its lines can be read back from the file through them). */
  frames?: ZstdFrameIndex;
}

export type ByteSource = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

export interface DecodeProgress {
  /** Compressed (as-given) bytes consumed so far. */
  bytesIn: number;
}

/**
 * Decodes a byte source to plaintext byte chunks (decompressed when it is
 * zstd or gzip). Findings about the encoding (torn or corrupt frames) are
 * pushed onto `diagnostics`; decoding stops at a corrupt frame but
 * everything decoded before it is still yielded. `reuse`: the caller copies
 * what it keeps of each chunk before asking for the next (zstd frames are
 * then decoded into one arena; see zstdFrames).
 */
export async function* decodeBytes(
  source: ByteSource,
  diagnostics: Diagnostic[],
  onBytes?: (p: DecodeProgress) => void,
  info: DecodeInfo = { decodedBytes: 0 },
  options: { reuse?: boolean } = {},
): AsyncGenerator<Uint8Array> {
  let inner: AsyncGenerator<Uint8Array> | null = null;
  const pending: Uint8Array[] = [];
  let bytesIn = 0;

  // Buffer until the magic bytes can be read, then pick a decompressor.
  async function* raw(): AsyncGenerator<Uint8Array> {
    for await (const chunk of source as AsyncIterable<Uint8Array>) {
      bytesIn += chunk.length;
      onBytes?.({ bytesIn });
      yield chunk;
    }
  }

  const it = raw();
  let headLen = 0;
  let ended = false;
  while (headLen < 4) {
    const next = await it.next();
    if (next.done) { ended = true; break; }
    pending.push(next.value);
    headLen += next.value.length;
  }
  const head = pending.length === 1 ? pending[0] : concatBytes(pending);
  const encoding = sniffEncoding(head);
  info.encoding = encoding;

  async function* replay(): AsyncGenerator<Uint8Array> {
    if (head.length) yield head;
    if (!ended) yield* it;
  }

  if (encoding === 'zstd') inner = zstdFrames(replay(), diagnostics, (info.frames = new ZstdFrameIndex()), options);
  else if (encoding === 'gzip') inner = gunzip(replay(), diagnostics);
  else inner = replay();

  for await (const bytes of inner) {
    info.decodedBytes += bytes.length;
    yield bytes;
  }
}

/** The same as text chunks (UTF-8, streaming across chunk boundaries). */
export async function* decodeText(
  source: ByteSource,
  diagnostics: Diagnostic[],
  onBytes?: (p: DecodeProgress) => void,
  info: DecodeInfo = { decodedBytes: 0 },
): AsyncGenerator<string> {
  // ignoreBOM keeps a byte-order mark in the text so the reader can report it.
  const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
  for await (const bytes of decodeBytes(source, diagnostics, onBytes, info)) {
    const text = decoder.decode(bytes, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

async function* gunzip(source: AsyncGenerator<Uint8Array>, diagnostics: Diagnostic[]): AsyncGenerator<Uint8Array> {
  const stream = new DecompressionStream('gzip');
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  // Keep a read pending at all times: a stream that errors (a bad CRC at the
  // end) discards output still queued in it, so output must never queue —
  // otherwise how much of a corrupt file survives depends on chunk sizes.
  const out: Uint8Array[] = [];
  let failure: unknown = null;
  const pump = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (value) out.push(value);
      }
    } catch (err) {
      failure = err;
    }
  })();
  try {
    // Feed a fixed grid of pieces, whatever sizes the source arrives in: the
    // platform decoder drops the output of the write that fails, so this keeps
    // a corrupt file's result independent of chunking and bounds the loss.
    for await (const piece of regrid(source, GZIP_PIECE)) {
      await writer.write(piece);
      yield* drain(out);
    }
    await writer.close();
  } catch (err) {
    failure ??= err;
  }
  await pump;
  yield* drain(out);
  if (failure) {
    diagnostics.push(diagnostic('bytes.gzip-corrupt', `gzip decoding failed: ${(failure as Error).message}; lines decoded before the fault are kept.`));
  }
}

const GZIP_PIECE = 16 * 1024;

/** Re-cuts a byte stream into pieces of exactly `size` bytes (the last may be shorter). */
async function* regrid(source: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  let buf: Uint8Array<ArrayBuffer> = new Uint8Array(size);
  let fill = 0;
  for await (const chunk of source) {
    let o = 0;
    while (o < chunk.length) {
      const n = Math.min(size - fill, chunk.length - o);
      buf.set(chunk.subarray(o, o + n), fill);
      fill += n;
      o += n;
      if (fill === size) {
        yield buf;
        buf = new Uint8Array(size);
        fill = 0;
      }
    }
  }
  if (fill) yield buf.subarray(0, fill);
}

function* drain(queue: Uint8Array[]): Generator<Uint8Array> {
  while (queue.length) yield queue.shift()!;
}

