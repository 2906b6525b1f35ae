import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { decodeText, type ByteSource } from './bytes.ts';

/**
 * A log's whole decoded text (zstd and gzip decompressed, as the reader
 * decodes them), for what rewrites its lines: the what-if edits, in the
 * CLI and in the worker alike.
 */
export async function decodedText(source: ByteSource): Promise<string> {
  const parts: string[] = [];
  const diagnostics: Diagnostic[] = [];
  for await (const text of decodeText(source, diagnostics)) parts.push(text);
  return parts.join('');
}
