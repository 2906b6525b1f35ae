import type { LoadSource } from '../protocol.ts';
import { streamChunks } from '../stream-chunks.ts';

/** A source's bytes as chunks, and its size when known (a download without a length has none). */
export async function openSource(source: LoadSource): Promise<{ chunks: AsyncIterable<Uint8Array>; totalBytes: number | null }> {
  if (source.kind === 'text') {
    const bytes = new TextEncoder().encode(source.text);
    return { chunks: (async function* () { yield bytes; })(), totalBytes: bytes.length };
  }
  if (source.kind === 'bytes') {
    const { bytes } = source;
    const CHUNK = 1 << 20;
    return { chunks: (async function* () { for (let o = 0; o < bytes.length; o += CHUNK) yield bytes.subarray(o, o + CHUNK); })(), totalBytes: bytes.length };
  }
  if (source.kind === 'file') return { chunks: streamChunks(source.file.stream()), totalBytes: source.file.size };
  const response = await fetch(source.url, { credentials: 'omit', referrerPolicy: 'no-referrer' });
  if (!response.ok || !response.body) throw new Error(`could not fetch ${source.url}: HTTP ${response.status}`);
  const length = Number(response.headers.get('content-length'));
  return { chunks: streamChunks(response.body), totalBytes: Number.isFinite(length) && length > 0 ? length : null };
}
