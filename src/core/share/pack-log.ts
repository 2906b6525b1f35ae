import { decodeBytes, decodeText, type ByteSource } from '../log/bytes.ts';
import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { concatBytes } from '../util/bytes.ts';
import { LogRedactor, type RedactionHit } from './redact-log.ts';

/**
 * A log made ready to travel inside a link or a file: decoded (plain, zstd
 * or gzip in), redacted line by line unless asked not to, and gzipped with
 * the platform's CompressionStream (browsers, workers and Node alike). The
 * reader opens gzip by its magic bytes, so the packed bytes load as they are.
 */
export interface PackedLog {
  gzip: Uint8Array;
  /** Bytes of the (redacted) log text before compression. */
  plainBytes: number;
  redacted: boolean;
  /** Secrets replaced (0 when not redacted). */
  redactions: number;
  /** The first few redactions, for a preview. */
  hits: RedactionHit[];
}

export async function packLog(source: ByteSource, options: { redact: boolean }): Promise<PackedLog> {
  const diagnostics: Diagnostic[] = [];
  const redactor = options.redact ? new LogRedactor() : null;
  const encoder = new TextEncoder();
  let plainBytes = 0;
  async function* lines(): AsyncGenerator<Uint8Array> {
    if (!redactor) {
      for await (const bytes of decodeBytes(source, diagnostics)) { plainBytes += bytes.length; yield bytes; }
      return;
    }
    let rest = '';
    let lineNo = 0;
    const out = (text: string) => { const b = encoder.encode(text); plainBytes += b.length; return b; };
    for await (const text of decodeText(source, diagnostics)) {
      const parts = (rest + text).split('\n');
      rest = parts.pop()!;
      const ready = parts.flatMap((line) => redactor.push(line, ++lineNo));
      if (ready.length) yield out(ready.join('\n') + '\n');
    }
    // The last line keeps its lack of a newline.
    const last = rest ? redactor.push(rest, ++lineNo) : [];
    const held = [...last, ...redactor.end()];
    if (held.length) yield out(held.join('\n') + (rest ? '' : '\n'));
  }
  // A torn last frame travels as its complete lines, as the app shows it.
  const gzip = await gzipChunks(lines());
  return { gzip, plainBytes, redacted: redactor !== null, redactions: redactor?.count ?? 0, hits: redactor?.hits ?? [] };
}

/** Gzip of a stream of byte chunks (written and read at once, so backpressure cannot stall). */
export async function gzipChunks(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<Uint8Array> {
  const stream = new CompressionStream('gzip');
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const writing = (async () => {
    try {
      for await (const chunk of chunks) if (chunk.length) await writer.write(chunk as Uint8Array<ArrayBuffer>);
      await writer.close();
    } catch (err) {
      await writer.abort(err).catch(() => {});
      throw err;
    }
  })();
  const out: Uint8Array[] = [];
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value) out.push(value);
    }
  })();
  await Promise.all([writing, reading]);
  return concatBytes(out);
}

/** The plain text bytes of packed (gzip) bytes; a torn or corrupt stream is an error that says so. */
export async function unpackLog(gzip: Uint8Array): Promise<Uint8Array> {
  const diagnostics: Diagnostic[] = [];
  const parts: Uint8Array[] = [];
  for await (const bytes of decodeBytes([gzip], diagnostics)) parts.push(bytes);
  const broken = diagnostics.find((d) => d.code.startsWith('bytes.'));
  // The reader's wording continues with what it keeps; a shared log is whole or not at all.
  if (broken) throw new Error(broken.message.replace(/;\s*(lines|complete lines) decoded.*$/s, ''));
  return concatBytes(parts);
}
