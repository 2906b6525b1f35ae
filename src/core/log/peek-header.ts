import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { decodeText, type ByteSource } from './bytes.ts';
import type { SessionHeader } from './types.ts';

/** Longest header line we read before giving up (headers are a few hundred bytes). */
const MAX_HEADER_CHARS = 1 << 20;

/**
 * The header line of a log, decoded only as far as its first newline — how a
 * workspace of several dropped files learns which is the parent of which
 * without reading them all.
 */
export async function peekHeader(source: ByteSource): Promise<SessionHeader | null> {
  const ignored: Diagnostic[] = [];
  let text = '';
  for await (const chunk of decodeText(source, ignored)) {
    text += chunk;
    const nl = text.indexOf('\n');
    if (nl >= 0) { text = text.slice(0, nl); break; }
    if (text.length > MAX_HEADER_CHARS) return null;
  }
  try {
    const value = JSON.parse(text.replace(/^\ufeff/, ''));
    return value && typeof value === 'object' && value.type === 'session' ? (value as SessionHeader) : null;
  } catch {
    return null;
  }
}
