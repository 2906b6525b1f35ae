import { knownEventTypes } from '../log/event-types.ts';
import { PACKED_DELTA_TYPES } from '../log/packed-rows.ts';
import { SOURCE_LABEL_TRIGGERS } from '../messages/source-kinds.ts';
import { previewVocabulary } from '../replay/preview.ts';
import type { SearchQuery } from './query.ts';

/**
 * What a log line's raw text must hold for any event of it to match a query,
 * so a whole-log search parses only the lines that may match (on a
 * 1M-event log, parsing every line again was most of a search's time).
 *
 * A word matches an event when it is in the event's type, its one-line
 * preview or one of its string values (`matchesQuery`). A line is ruled out
 * only when some word is surely in none of them; a line that passes is still
 * matched in full, so the filter only ever saves work. For the words it
 * checks it is a necessary condition:
 * - a string value is in the line as written, save JSON's escapes: a line
 *   with a `\u` or `\/` escape always passes, and a checked word holds no
 *   other character JSON escapes (quote, backslash, controls);
 * - a preview is made of the event's strings, keys, numbers and literals (in
 *   the line too, a number perhaps in another form) and its type's labels
 *   (replay/preview.ts says which), joined by whitespace or punctuation. A word
 *   without those lies inside one piece. One inside a label of the event's
 *   type is admitted by the type; a source tag's label counts when the line
 *   holds what adds it;
 * - a number prints as String() makes it, which is a part of its token as
 *   written (1.50 → 1.5, -0 → 0) unless the token has an exponent, 16 or more
 *   digits (rounded), or a fraction below 1e-6 (printed with an exponent): a
 *   line holding such a token may hold any word that could be (part of) a
 *   number, as does an event whose type's preview prints a count of its own;
 * - a word with whitespace or joining punctuation is checked by its pieces
 *   between them (each is in whatever text holds the word);
 * - lower case: the line is lower-cased whole, which lower-cases each value
 *   the same way except a Greek capital sigma (its small form depends on what
 *   follows), so a word holding σ or ς is not checked;
 * - a packed row's members carry a chunk type their row does not spell: those
 *   names count as in the line. Events the reader changed have no raw line
 *   (the store says so) and always pass;
 * - a number too big for a double prints as "Infinity" or "null": a line with
 *   one holds the words those hold;
 * - a `role:` filter's role is the "role" value of the event's message, in
 *   the line as written, or the role a user/message has without one;
 * - a `job:` filter's id or kind is a string value of the job record: it is
 *   checked as a word is.
 */
export interface LinePrefilter {
  /** The words (and the error filter's) a line's raw text holds, as bits. */
  lineBits(text: string, packed: boolean): number;
  /**
   * Bits a block of lines may hold: at least each line's. Read without lower-casing the block
   * (a case-insensitive search, which folds each character as lower-casing it would, save the one
   * whose lower case is two characters), so a block that holds no word is ruled out cheaply.
   */
  blockBits(text: string, packed: boolean): number;
  /** Whether an event of this type, in a line with these bits, may match. */
  admits(bits: number, typeId: number): boolean;
  /**
   * Whether an event of any of the filter's types, or one DSH's legacy
   * upgrade made of the line, may match: for a matcher of types and previews
   * only, which reads lines it has not parsed (a folder search). Not for one
   * that matches string values: an upgraded row holds ids its line does not.
   */
  admitsAnyType(bits: number): boolean;
}

/** Characters any preview may put between two pieces (whitespace aside), and JSON's escaped ones. */
export const JOINING = /[\s"\\{}[\]:,()·→…\u0000-\u001f]/u;
const JOINING_ALL = new RegExp(JOINING.source, 'gu');
/** A word that could be (part of) a number as a preview prints it. */
const NUMBER_LIKE = /^[0-9.eE+-]+$/;
/**
 * A number token String() may print as other than a part of itself: one with an exponent, 16+
 * digits and points (rounded past a double's precision, or an exponent from 1e21), or a fraction
 * below 1e-6 (printed with an exponent). A number token follows a colon, a comma or a bracket
 * (after JSON's whitespace), which keeps ids and hashes in strings ("3e4f") from counting; the
 * same text inside a string counts too (a superset).
 */
const NUMBER_PRINTED_OTHERWISE = /[:,[]\s*-?(?:\d+(?:\.\d*)?[eE][+-]?\d|[\d.]{16}|0\.0{6})/;

/** Whether a text holds a number token String() may print as other than a part of itself. */
export const mayPrintNumbersOtherwise = (text: string): boolean => NUMBER_PRINTED_OTHERWISE.test(text);
const PACKED_TEXT = Object.values(PACKED_DELTA_TYPES).join('\n');
/** At most this many words are checked (two bits each: in the line, or a source label's trigger in it); the rest are matched in full only. */
const MAX_WORDS = 15;
const TRIGGER_SHIFT = MAX_WORDS;
const ERROR_BIT = 1 << (2 * MAX_WORDS);
/** A `role:` filter's role as a "role" value in the line (the sign bit: bits are compared whole, never shifted). */
const ROLE_BIT = 1 << (2 * MAX_WORDS + 1);

/** The one character whose lower case is two characters (İ → i̇): a block holding it is not ruled out by a case-insensitive search. */
export const TWO_CHAR_LOWER = '\u0130';
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** A search for any of these (lower-case) texts in a text as written, as lower-casing it would find them (save TWO_CHAR_LOWER). */
export const caselessPattern = (texts: readonly string[]): RegExp => new RegExp(texts.map(escapeRegExp).join('|'), 'iu');

/**
 * What the error filter's event holds besides an error-like type (`isError` in query.ts): an
 * `isError` key set to true, or a reason kind "error" or "failed" (any such key anywhere: a superset),
 * with the whitespace JSON allows around the colon. Lower case; the second for a block as written.
 */
const ERROR_FLAG = /"iserror"\s*:\s*true|"kind"\s*:\s*"(?:error|failed)"/;
const ERROR_FLAG_CASELESS = new RegExp(ERROR_FLAG.source, 'iu');
/**
 * A number too big for a double (JSON.parse makes it Infinity; String() prints "Infinity", JSON.stringify
 * "null", neither in the line): an integer part of 200+ digits, or an exponent of 3+ digits (a superset).
 */
const OVERFLOW = /\d{200}|[eE]\+?\d{3}/;
const OVERFLOW_TEXT = '-infinity\nnull';
/**
 * What rc.8's legacy upgrade (log/legacy.ts) makes a preview print that its
 * line may not hold: a turn/end "disposed" reads "aborted". (Its other
 * changes print nothing new: the type it renames to is a known type, and the
 * sources it adds print no tag.)
 */
const UPGRADE_TEXT = 'aborted';

/** JSON escapes the filter does not undo (`\u`, `\/`): a text holding one may hold any word. */
export const hasEscapes = (text: string) => text.includes('\\u') || text.includes('\\/');

/**
 * Whether a text reads the same in a line as written, lower-cased with the line: none of the
 * characters JSON escapes, and no Greek sigma (its small form depends on what follows it).
 */
export const readsAsWritten = (text: string): boolean => !/["\\\u0000-\u001f]|[σς]/.test(text);

/** Whether a word can be looked for in a line's raw text at all. */
export function isCheckableWord(word: string): boolean {
  return word !== '' && !JOINING.test(word) && readsAsWritten(word);
}

/** The filter for a parsed query, or null when it can rule out no line. */
export function linePrefilter(query: SearchQuery, typeNames: readonly string[]): LinePrefilter | null {
  // A word found in one text has each of its pieces there too: "exit code" needs "exit" and "code".
  // A `job:` filter's id or kind is a string value of the record, so in its line as written, as a word is.
  const asWords = query.job !== undefined ? [...query.words, query.job] : query.words;
  const words = [...new Set(asWords.flatMap((w) => w.split(JOINING_ALL)).filter(isCheckableWord))].slice(0, MAX_WORDS);
  // A `role:` filter's role is a message's "role" value, in the line as written (JSON's whitespace
  // around the colon); a user/message without one is the user's. (Not checked when JSON would escape it.)
  const role = query.role !== undefined && readsAsWritten(query.role) ? query.role : null;
  if (!words.length && !query.error && role === null) return null;
  const wordBits = (1 << words.length) - 1;
  const bitsOf = (has: (word: string) => boolean) => words.reduce((bits, w, i) => (has(w) ? bits | (1 << i) : bits), 0);
  const all = wordBits | (query.error ? ERROR_BIT : 0) | (role !== null ? ROLE_BIT : 0);
  // Per word, what a line holds when a source tag may print it.
  const triggers = words.map((w) => SOURCE_LABEL_TRIGGERS.filter(([label]) => label.toLowerCase().includes(w)).map(([, holds]) => holds));
  const numberBits = bitsOf((w) => NUMBER_LIKE.test(w));
  // Per type: the bits it supplies itself (a word in its name or its preview's labels, an error-like
  // name), and whether a source tag's trigger in the line counts.
  const types = typeNames.map((name) => {
    const t = name.toLowerCase();
    const { labels, joins, sourceTagged, counts } = previewVocabulary(name);
    const labelText = labels.join('\n').toLowerCase();
    const bits = bitsOf((w) => t.includes(w) || labelText.includes(w) || [...joins].some((c) => w.includes(c))) | (counts ? numberBits : 0)
      | (query.error && /error|fail/.test(t) ? ERROR_BIT : 0) | (role === 'user' && t === 'user/message' ? ROLE_BIT : 0);
    return { bits, triggerMask: sourceTagged ? wordBits << TRIGGER_SHIFT : 0 };
  });
  // Any type at once: what each supplies, a source tag's trigger if any type has one, and the legacy upgrade's text.
  const anyType = types.reduce((u, t) => ({ bits: u.bits | t.bits, triggerMask: u.triggerMask | t.triggerMask }), { bits: bitsOf((w) => UPGRADE_TEXT.includes(w)), triggerMask: 0 });
  const packedBits = bitsOf((w) => PACKED_TEXT.includes(w));
  const overflowBits = bitsOf((w) => OVERFLOW_TEXT.includes(w));
  // A line the filter cannot read as written (JSON escapes) holds every word, as far as it can tell.
  const unreadableBits = all | (wordBits << TRIGGER_SHIFT);
  const caseless = (texts: readonly string[]) => (texts.length ? caselessPattern(texts) : null);
  const wordPatterns = words.map((w) => caseless([w])!);
  const triggerPatterns = triggers.map(caseless);
  // Lower case, as lineBits reads it; caseless for a block as written (save TWO_CHAR_LOWER, as the words).
  const roleSource = role === null ? null : `"role"\\s*:\\s*"${escapeRegExp(role)}"`;
  const roleInLower = roleSource === null ? null : new RegExp(roleSource, 'u');
  const roleCaseless = roleSource === null ? null : new RegExp(roleSource, 'iu');
  /** The bits of a text, given how to look for a word (by index), a source label's triggers, and the flags it holds (the error filter's, the role's). */
  const heldBits = (text: string, packed: boolean, hasWord: (i: number) => boolean, hasTrigger: (i: number) => boolean, flagBits: () => number): number => {
    let bits = (packed ? packedBits : 0) | (overflowBits && OVERFLOW.test(text) ? overflowBits : 0) | (numberBits && NUMBER_PRINTED_OTHERWISE.test(text) ? numberBits : 0);
    for (let i = 0; i < words.length; i++) {
      if (hasWord(i)) bits |= 1 << i;
      else if (hasTrigger(i)) bits |= 1 << (i + TRIGGER_SHIFT);
    }
    return query.error || role !== null ? bits | flagBits() : bits;
  };
  return {
    blockBits(text, packed) {
      if (hasEscapes(text) || text.includes(TWO_CHAR_LOWER)) return unreadableBits;
      return heldBits(text, packed, (i) => wordPatterns[i].test(text), (i) => triggerPatterns[i]?.test(text) ?? false,
        () => (query.error && ERROR_FLAG_CASELESS.test(text) ? ERROR_BIT : 0) | (roleCaseless?.test(text) ? ROLE_BIT : 0));
    },
    lineBits(text, packed) {
      if (hasEscapes(text)) return unreadableBits;
      const lower = text.toLowerCase();
      return heldBits(text, packed, (i) => lower.includes(words[i]), (i) => triggers[i].some((holds) => lower.includes(holds)),
        () => (query.error && ERROR_FLAG.test(lower) ? ERROR_BIT : 0) | (roleInLower?.test(lower) ? ROLE_BIT : 0));
    },
    admits(bits, typeId) {
      const type = types[typeId];
      return !type || holdsAll(bits, type);
    },
    admitsAnyType: (bits) => holdsAll(bits, anyType),
  };
  function holdsAll(bits: number, supplied: { bits: number; triggerMask: number }): boolean {
    const held = bits | supplied.bits | ((bits & supplied.triggerMask) >>> TRIGGER_SHIFT);
    return (held & all) === all;
  }
}

/** A name of every type the app knows (each dialect's, a plugin record's) and of an unknown one (its preview is its JSON). */
const EVERY_TYPE_NAME: readonly string[] = [...new Set([...knownEventTypes('v0'), ...knownEventTypes('v4')]), 'plugin:record', ''];

/**
 * For a search that matches an event's type or its preview only, in lines
 * not parsed yet (a folder search: their types unknown): whether a raw line
 * may hold an event that matches. Null when no line can be ruled out.
 */
export function anyTypeLineFilter(query: SearchQuery): ((text: string) => boolean) | null {
  const filter = linePrefilter(query, EVERY_TYPE_NAME);
  // A packed row spells its own type ("text-chunks"), not its members' chunk types: counted as one when it may be.
  return filter && ((text) => filter.admitsAnyType(filter.lineBits(text, text.includes('-chunks"'))));
}
