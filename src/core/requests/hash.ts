import { utf8Bytes } from '../util/utf8.ts';

export { utf8Bytes };

/**
 * A stable, fast content hash for request identity (not cryptographic): two
 * 32-bit multiply-xorshift lanes over the UTF-16 code units, 16 hex digits.
 */
export function contentHash(text: string): string {
  let a = 0x9e3779b9 ^ text.length;
  let b = 0x85ebca6b ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b);
  a = Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
  a ^= a >>> 16;
  b = Math.imul(b ^ (b >>> 16), 0x27d4eb2f);
  b = Math.imul(b ^ (b >>> 13), 0x165667b1);
  b ^= b >>> 16;
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/** Messages are frozen and identity-stable: each is hashed once. */
const messageHashes = new WeakMap<object, string>();

/**
 * Identity of a request: the hash of its fields with each message replaced
 * by the message's own content hash — equal requests hash equal, and a log
 * with thousands of calls hashes each message once, not once per call.
 */
export function requestHash(request: { messages: readonly object[] }): string {
  const parts = request.messages.map((m) => {
    let h = messageHashes.get(m);
    if (h === undefined) { h = contentHash(JSON.stringify(m)); messageHashes.set(m, h); }
    return h;
  });
  // The fields in their order, messages replaced — without reading `messages` a second time (it may be derived on read).
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(request)) fields[key] = key === 'messages' ? parts : (request as Record<string, unknown>)[key];
  return contentHash(JSON.stringify(fields));
}
