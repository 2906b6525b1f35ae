import { isHighSurrogate, isLowSurrogate } from './utf8.ts';

/**
 * UTF-8 length of `JSON.stringify(value)`, counted without building the
 * text (the load sizes every message on a long surface once;
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

/** The bytes JSON writes for an ASCII character beyond the character itself: a table, not a chain of tests per character. */
const ASCII_EXTRA = new Uint8Array(128);
for (let c = 0; c < 0x20; c++) ASCII_EXTRA[c] = 5; // \u00XX
for (const c of [8, 9, 10, 12, 13, 0x22, 0x5c]) ASCII_EXTRA[c] = 1; // \b \t \n \f \r \" \\

function stringBytes(s: string): number {
  // Keys and short values are walked outright: the test costs more than the walk there.
  if (s.length > 32 && !NEEDS_WALK.test(s)) return s.length + 2;
  let n = s.length + 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    n += c < 0x80 ? ASCII_EXTRA[c] : wideExtra(s, i, c);
  }
  return n;
}

/**
 * The bytes beyond one for a code unit past ASCII. A surrogate pair is four
 * bytes, two for each half; a lone surrogate is written \uD8XX, six.
 */
function wideExtra(s: string, i: number, c: number): number {
  if (c < 0x800) return 1;
  if (c < 0xd800 || c > 0xdfff) return 2;
  const paired = c <= 0xdbff ? isLowSurrogate(i + 1 < s.length ? s.charCodeAt(i + 1) : 0) : isHighSurrogate(i > 0 ? s.charCodeAt(i - 1) : 0);
  return paired ? 1 : 5;
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
  // for-in over a plain object is its own keys in Object.keys' order, without the array (V8 caches its enumeration).
  for (const key in o) {
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
