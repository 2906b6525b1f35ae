import type { ModelRequest } from '../requests/build.ts';
import { contentHash } from '../requests/hash.ts';
import type { RequestHeader } from '../prompt/request-header.ts';
import { jsonText } from '../util/json-text.ts';

/**
 * The parts of a request a comparison tells apart, most telling first: the
 * route and sampling config, the system prompt, the tools, the messages
 * (dsh-log-rules P8 layer A, `sessionId` aside: it names the log, not
 * what the model was sent).
 */
export type DiffKind = 'config' | 'system' | 'tools' | 'messages';
export const DIFF_KINDS: readonly DiffKind[] = ['config', 'system', 'tools', 'messages'];

/** The config as compared: the header's config and adapter defaults. */
export function configOf(header: RequestHeader | null): Record<string, unknown> | null {
  return header ? { ...(header.config ?? {}), ...(header.adapterDefaults ? { adapterDefaults: header.adapterDefaults } : {}) } : null;
}

/** The system prompt as compared: its text, or a marker for none sent yet / opaque content. */
export function systemKey(request: ModelRequest): string {
  const text = request.system.text;
  return text === null ? '\u0000none' : text === undefined ? '\u0000opaque' : text;
}

interface HeaderHashes {
  config: string;
  tools: string;
}

const NO_HEADER: HeaderHashes = { config: 'none', tools: 'none' };

/**
 * Hashes of the compared parts, each made once per comparison: calls under
 * one header share its object, and prompt texts repeat as the same strings,
 * so comparing two long runs call by call never re-reads a prompt or a tool
 * list (comparing two equal 10 kB strings of different runs would).
 */
export class RequestParts {
  private readonly headers = new WeakMap<RequestHeader, HeaderHashes>();
  /** The last prompt each side hashed: consecutive calls share one string object, so the check is a pointer compare. */
  private readonly lastSystem = { a: { key: '', hash: contentHash('') }, b: { key: '', hash: contentHash('') } };

  /** What differs between call `a` of run A and call `b` of run B, in DIFF_KINDS order; `sigA`/`sigB` identify their message lists. */
  differing(a: ModelRequest, b: ModelRequest, sigA: string, sigB: string): DiffKind[] {
    const ha = this.header(a.header);
    const hb = this.header(b.header);
    const out: DiffKind[] = [];
    if (ha.config !== hb.config) out.push('config');
    if (this.system(a, 'a') !== this.system(b, 'b')) out.push('system');
    if (ha.tools !== hb.tools) out.push('tools');
    if (sigA !== sigB) out.push('messages');
    return out;
  }

  /** One identity for the whole request (equal requests, equal identities), for the aligner. */
  identity(request: ModelRequest, side: 'a' | 'b', messagesSig: string): string {
    const h = this.header(request.header);
    return contentHash(`${h.config}|${h.tools}|${this.system(request, side)}|${messagesSig}`);
  }

  private header(header: RequestHeader | null): HeaderHashes {
    if (!header) return NO_HEADER;
    let h = this.headers.get(header);
    if (!h) {
      h = { config: contentHash(JSON.stringify(configOf(header))), tools: contentHash(jsonText(header.tools)) };
      this.headers.set(header, h);
    }
    return h;
  }

  private system(request: ModelRequest, side: 'a' | 'b'): string {
    const key = systemKey(request);
    const last = this.lastSystem[side];
    if (key !== last.key) { last.key = key; last.hash = contentHash(key); }
    return last.hash;
  }
}
