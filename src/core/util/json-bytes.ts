/**
 * UTF-8 length of `JSON.stringify(value)`, counted without building the
 * text (issue #15: the load sizes every message on a long surface once;
 * serializing each and encoding the result was the walk's largest own cost).
 * Exact for what JSON.parse gives — plain objects, arrays, strings, finite
 * and non-finite numbers, booleans, null; anything else (a Date, a toJSON)
 * is handed to JSON.stringify itself (a toJSON is not told its key).
 */
export function jsonBytes(value: unknown): number {
  return Math.max(0, jsonValueBytes(value));
}

/** A plain object JSON.stringify writes member by member (no toJSON, no class). */
export function isPlainData(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/** Bytes of one value, or -1 where JSON.stringify writes nothing (undefined, a function, a symbol, a toJSON giving undefined). */
export function jsonValueBytes(value: unknown): number {
  switch (typeof value) {
    case 'string': return stringBytes(value);
    case 'number': return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean': return value ? 4 : 5;
    case 'object': {
      if (value === null) return 4;
      if (Array.isArray(value)) return arrayBytes(value);
      return isPlainData(value) ? objectBytes(value as Record<string, unknown>) : viaStringify(value);
    }
    case 'undefined':
    case 'function':
    case 'symbol':
      return -1;
    // A bigint throws, as JSON.stringify does.
    default: return viaStringify(value);
  }
}

/** Characters that JSON escapes or that take more than one UTF-8 byte: only then is a string walked. */
const NEEDS_WALK = /["\\\u0000-\u001f\u007f-\uffff]/;

function stringBytes(s: string): number {
  if (!NEEDS_WALK.test(s)) return s.length + 2;
  let n = 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (c >= 0x20) n += c === 0x22 || c === 0x5c ? 2 : 1;
      // \b \t \n \f \r have two-character escapes, the other controls \u00XX.
      else n += c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 2 : 6;
    } else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) { n += 4; i++; } else n += 6; // a lone surrogate is written \uD8XX
    } else if (c >= 0xdc00 && c <= 0xdfff) n += 6;
    else n += 3;
  }
  return n;
}

function arrayBytes(a: readonly unknown[]): number {
  let n = 2 + Math.max(0, a.length - 1);
  for (let i = 0; i < a.length; i++) {
    const b = jsonValueBytes(a[i]);
    n += b < 0 ? 4 : b; // written as null
  }
  return n;
}

function objectBytes(o: Record<string, unknown>): number {
  let n = 2;
  let members = 0;
  for (const key of Object.keys(o)) {
    const b = jsonValueBytes(o[key]);
    if (b < 0) continue; // left out
    n += stringBytes(key) + 1 + b;
    members++;
  }
  return n + Math.max(0, members - 1);
}

const encoder = new TextEncoder();
function viaStringify(value: unknown): number {
  const text = JSON.stringify(value);
  return text === undefined ? -1 : encoder.encode(text).length;
}
