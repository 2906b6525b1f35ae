/**
 * Base64 (RFC 4648 §4) and base64url (§5, no padding) for bytes, in plain
 * TypeScript: the core runs where neither `btoa` on binary strings nor
 * `Buffer` can be counted on. Decoding is strict: a character outside the
 * alphabet or an impossible length is an error that says where.
 */
const STANDARD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function lookup(alphabet: string): Int16Array {
  const table = new Int16Array(128).fill(-1);
  for (let i = 0; i < 64; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
}
const STANDARD_LOOKUP = lookup(STANDARD);
const URL_LOOKUP = lookup(URL_SAFE);
/** Characters joined at a time (a huge log's string is built in pieces). */
const PIECE = 1 << 15;

export function toBase64(bytes: Uint8Array, url = false): string {
  const alphabet = url ? URL_SAFE : STANDARD;
  const pieces: string[] = [];
  let chars: string[] = [];
  const n = bytes.length;
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    chars.push(alphabet[v >> 18], alphabet[(v >> 12) & 63], alphabet[(v >> 6) & 63], alphabet[v & 63]);
    if (chars.length >= PIECE) { pieces.push(chars.join('')); chars = []; }
  }
  if (i < n) {
    const v = (bytes[i] << 16) | ((i + 1 < n ? bytes[i + 1] : 0) << 8);
    chars.push(alphabet[v >> 18], alphabet[(v >> 12) & 63]);
    if (i + 1 < n) chars.push(alphabet[(v >> 6) & 63]);
    else if (!url) chars.push('=');
    if (!url) chars.push('=');
  }
  pieces.push(chars.join(''));
  return pieces.join('');
}

export class Base64Error extends Error {}

/** Bytes of a base64 (or, with `url`, base64url) text; padding is optional either way. */
export function fromBase64(text: string, url = false): Uint8Array {
  const table = url ? URL_LOOKUP : STANDARD_LOOKUP;
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61 /* = */ && text.length - end < 2) end--;
  if (end % 4 === 1) throw new Base64Error(`${end} characters cannot be base64 (one too many or a character missing)`);
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? table[c] : -1;
    if (v < 0) throw new Base64Error(`character ${JSON.stringify(text[i])} at ${i} is not ${url ? 'base64url' : 'base64'}`);
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, o);
}
