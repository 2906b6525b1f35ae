import { PREVIEW_LABELS } from '../replay/preview.ts';
import { SOURCE_LABELS } from '../messages/source-kinds.ts';
import { PACKED_DELTA_TYPES } from '../log/packed-rows.ts';
import type { SearchQuery } from './query.ts';

/**
 * What a log line's raw text must hold for any event of it to match a query,
 * so a whole-log search parses only the lines that may match (issue #15: on a
 * 1M-event log, parsing every line again was most of a search's time).
 *
 * A word matches an event when it is in the event's type, its one-line
 * preview or one of its string values (`matchesQuery`). A line passes the
 * filter unless some word is surely in none of them; a line that passes is
 * still matched in full, so the filter only ever saves work. It is a
 * necessary condition for the words it checks ("safe" words):
 * - a string value is in the line as written, save JSON's escapes: a line
 *   with a `\u` or `\/` escape always passes, and a safe word holds no
 *   character JSON escapes otherwise (quote, backslash, controls);
 * - the preview is made of string values, keys, numbers and literals (in the
 *   line too, numbers perhaps in another form), and fixed labels, joined by
 *   whitespace or punctuation. A word without whitespace or that punctuation
 *   lies inside one piece: a word that could be a number, or part of a label,
 *   is not safe and is not checked. A word with them is checked by its pieces
 *   between them (each is in whatever text holds the word);
 * - lower case: the line is lower-cased whole, which lower-cases each value
 *   the same way except a Greek capital sigma (its small form depends on
 *   what follows), so a word holding σ or ς is not safe;
 * - a packed row's members carry a chunk type their row does not spell;
 *   those names count as in the line;
 * - a request header's preview joins its provider and model with a slash,
 *   so its lines always pass, as do events the reader changed (the store
 *   gives no raw line for them).
 */
export interface LinePrefilter {
  /** Bits of the words (and the error filter) a line holds: `lineBits` of its raw text. */
  lineBits(text: string, packed: boolean): number;
  /** Whether an event of this type, in a line with these bits, may match. */
  admits(bits: number, typeId: number): boolean;
}

/** Characters a preview may put between two pieces (whitespace aside), and JSON's escaped ones. */
const JOINING = /[\s"\\{}[\]:,()·→…\u0000-\u001f]/u;
const JOINING_ALL = new RegExp(JOINING.source, 'gu');
/** A word that could be (part of) a number as a preview prints it. */
const NUMBER_LIKE = /^[0-9.eE+-]+$/;
/** Words a preview may print that no line need hold: its labels, and String() of non-strings. */
const LABEL_TEXT = [...PREVIEW_LABELS, ...SOURCE_LABELS, 'undefined', 'null', 'true', 'false', '[object object]'].join('\n').toLowerCase();
const PACKED_TEXT = Object.values(PACKED_DELTA_TYPES).join('\n');
/** At most this many words are checked (one bit each); the rest are matched in full only. */
const MAX_WORDS = 30;
const ERROR_BIT = 1 << MAX_WORDS;

/** Whether a raw line (or an event in it) can be ruled out for `word` by the line's text. */
export function isSafeWord(word: string): boolean {
  return word !== '' && !JOINING.test(word) && !NUMBER_LIKE.test(word) && !/[σς]/.test(word) && !LABEL_TEXT.includes(word);
}

/** The filter for a parsed query, or null when it can rule out no line. */
export function linePrefilter(query: SearchQuery, typeNames: readonly string[]): LinePrefilter | null {
  // A word found in one text has each of its pieces there too: "exit code" needs "exit" and "code".
  const words = [...new Set(query.words.flatMap((w) => w.split(JOINING_ALL)).filter(isSafeWord))].slice(0, MAX_WORDS);
  if (!words.length && !query.error) return null;
  const lowerTypes = typeNames.map((t) => t.toLowerCase());
  // Per type: the bits it supplies itself (a word in its name, an error-like name), or all for a type that always passes.
  const all = ((1 << words.length) - 1) | (query.error ? ERROR_BIT : 0);
  const fromType = lowerTypes.map((t) => {
    if (t === 'request/header') return all;
    let bits = 0;
    words.forEach((w, i) => { if (t.includes(w)) bits |= 1 << i; });
    if (query.error && /error|fail/.test(t)) bits |= ERROR_BIT;
    return bits;
  });
  const packedBits = words.reduce((bits, w, i) => (PACKED_TEXT.includes(w) ? bits | (1 << i) : bits), 0);
  return {
    lineBits(text, packed) {
      if (text.includes('\\u') || text.includes('\\/')) return all;
      const lower = text.toLowerCase();
      let bits = packed ? packedBits : 0;
      for (let i = 0; i < words.length; i++) if (lower.includes(words[i])) bits |= 1 << i;
      // `isError`: an `isError` flag, or a reason kind "error" / "failed" (the type is checked apart).
      if (query.error && (lower.includes('error') || lower.includes('fail'))) bits |= ERROR_BIT;
      return bits;
    },
    admits: (bits, typeId) => ((bits | (fromType[typeId] ?? all)) & all) === all,
  };
}
