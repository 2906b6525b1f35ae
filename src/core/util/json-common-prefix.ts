import { jsonBytes, jsonValueBytes, isPlainData } from './json-bytes.ts';
import { isHighSurrogate, isLowSurrogate, utf8Bytes } from './utf8.ts';

/**
 * Where two JSON texts part, without writing them (docs/long-sessions.md). After a
 * compaction the next call's first message differs from the last call's;
 * what it keeps of it is the common prefix of the two messages' JSON.
 * Serializing both (a summary runs to tens of kilobytes) to find a
 * difference in their first characters was 9% of a compacting log's load.
 * These walk the two values side by side in JSON.stringify's order and stop
 * at the first difference; a string is compared character by character and
 * only its common part is measured.
 */

/** Common UTF-16 prefix of two strings, never ending between the halves of a pair. */
export function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i > 0 && i < n && isHighSurrogate(a.charCodeAt(i - 1))) i--;
  return i;
}

/**
 * UTF-8 bytes of the common prefix (as commonPrefixLength counts it) of
 * JSON.stringify(a) and JSON.stringify(b), or null when the two texts are
 * the same. Exact for what JSON.parse gives; anything else (a toJSON, a
 * class instance) is compared through JSON.stringify itself.
 */
export function jsonCommonPrefixBytes(a: unknown, b: unknown): number | null {
  const walk = { unsupported: false };
  const bytes = valuePrefix(a, b, walk);
  if (!walk.unsupported) return bytes === SAME ? null : bytes;
  const ta = JSON.stringify(a) ?? '';
  const tb = JSON.stringify(b) ?? '';
  return ta === tb ? null : utf8Bytes(tb, commonPrefixLength(ta, tb));
}

/** The two values write the same text. */
const SAME = -1;

type Kind = 'string' | 'scalar' | 'array' | 'object' | 'other';

function kindOf(v: unknown): Kind {
  switch (typeof v) {
    case 'string': return 'string';
    case 'number':
    case 'boolean': return 'scalar';
    case 'object':
      if (v === null) return 'scalar';
      if (Array.isArray(v)) return 'array';
      return isPlainData(v) ? 'object' : 'other';
    default: return 'other';
  }
}

const scalarText = (v: unknown): string => (typeof v === 'number' && !Number.isFinite(v) ? 'null' : String(v));

/** Bytes of the common prefix of the two values' texts, or SAME. */
function valuePrefix(a: unknown, b: unknown, walk: { unsupported: boolean }): number {
  if (a === b) return SAME;
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka === 'other' || kb === 'other') { walk.unsupported = true; return 0; }
  if (ka === 'scalar' && kb === 'scalar') {
    // Numbers, booleans and null write ASCII; one text may be the start of the other (1 and 12), and
    // what follows the shorter one (a comma, a bracket, the end) is never a digit or a letter.
    const ta = scalarText(a);
    const tb = scalarText(b);
    return ta === tb ? SAME : commonPrefixLength(ta, tb);
  }
  // Different kinds start with different characters: '"', '[', '{', a digit or a letter.
  if (ka !== kb) return 0;
  if (ka === 'string') return stringPrefix(a as string, b as string);
  if (ka === 'array') return arrayPrefix(a as unknown[], b as unknown[], walk);
  return objectPrefix(a as Record<string, unknown>, b as Record<string, unknown>, walk);
}

/**
 * Whether JSON.stringify writes nothing for the value (an object leaves the
 * member out, an array writes null): jsonValueBytes(v) < 0, without sizing
 * the strings, arrays and plain objects that always write something (the
 * walk stops at the first difference; sizing every member first did not).
 */
function writesNothing(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
    case 'number':
    case 'boolean':
      return false;
    case 'object':
      if (v === null || Array.isArray(v) || isPlainData(v)) return false;
  }
  return jsonValueBytes(v) < 0;
}

/** An array writes undefined, a function or a symbol as null. */
const inArray = (v: unknown): unknown => (writesNothing(v) ? null : v);

function arrayPrefix(a: unknown[], b: unknown[], walk: { unsupported: boolean }): number {
  let bytes = 1; // [
  for (let i = 0; ; i++) {
    // One ended: ']' against the other's ',' (or its first element's first character).
    if (i >= a.length || i >= b.length) return a.length === b.length ? SAME : bytes;
    if (i > 0) bytes += 1;
    const ea = inArray(a[i]);
    const eb = inArray(b[i]);
    const r = valuePrefix(ea, eb, walk);
    if (walk.unsupported) return 0;
    if (r !== SAME) return bytes + r;
    bytes += jsonBytes(ea);
  }
}

/** The members JSON.stringify writes: those whose value is not undefined, a function or a symbol. */
function members(o: Record<string, unknown>): string[] {
  return Object.keys(o).filter((k) => !writesNothing(o[k]));
}

function objectPrefix(a: Record<string, unknown>, b: Record<string, unknown>, walk: { unsupported: boolean }): number {
  const ma = members(a);
  const mb = members(b);
  let bytes = 1; // {
  for (let i = 0; ; i++) {
    // One ended: '}' against the other's ',' (or its first key's '"').
    if (i >= ma.length || i >= mb.length) return ma.length === mb.length ? SAME : bytes;
    if (i > 0) bytes += 1;
    const k = ma[i];
    if (k !== mb[i]) return bytes + stringPrefix(k, mb[i]);
    bytes += jsonBytes(k) + 1; // "key":
    const r = valuePrefix(a[k], b[k], walk);
    if (walk.unsupported) return 0;
    if (r !== SAME) return bytes + r;
    bytes += jsonBytes(a[k]);
  }
}

const isSurrogate = (c: number) => isHighSurrogate(c) || isLowSurrogate(c);

/** Bytes of the common prefix of two different strings' JSON texts (it ends inside both). */
function stringPrefix(a: string, b: string): number {
  if (a === b) return SAME;
  const n = Math.min(a.length, b.length);
  let j = 0;
  while (j < n && a.charCodeAt(j) === b.charCodeAt(j)) j++;
  // A lone half is written \uD8XX and a pair as it is: where a half differs, pairing decides each
  // text's escapes, and the texts themselves are compared. (Before j both strings are the same, and a
  // high half at j - 1 is lone in both unless a low half follows it in one: a difference at j.)
  if ((j < a.length && isSurrogate(a.charCodeAt(j))) || (j < b.length && isSurrogate(b.charCodeAt(j)))) {
    const ta = JSON.stringify(a);
    const tb = JSON.stringify(b);
    return utf8Bytes(tb, commonPrefixLength(ta, tb));
  }
  // The opening quote and the escaped common characters, then what the two escapes of the next
  // characters share (a backslash, or \u00): one character's escape is never the start of another's.
  const common = jsonBytes(j === a.length ? a : a.slice(0, j)) - 1;
  const ea = j < a.length ? JSON.stringify(a[j]).slice(1, -1) : '"';
  const eb = j < b.length ? JSON.stringify(b[j]).slice(1, -1) : '"';
  return common + commonPrefixLength(ea, eb);
}
