/**
 * What DSH's session-title normalization leaves of a text (its
 * `normalize.ts`): terminal escape sequences, control characters and
 * invisible or direction-changing marks removed, whitespace runs made one
 * space, the ends trimmed. The titleInput unit counts a prompt only when
 * something visible is left.
 */

/** An operating-system command: ESC ] (or the one-byte 0x9D) up to BEL, ESC \ or the text's end. */
const OSC = /(?:\u001B\]|\u009D)(?:(?!\u0007|\u001B\\)[\s\S])*(?:\u0007|\u001B\\|$)/gu;
/** A control sequence: ESC [ (or 0x9B), parameter bytes, intermediate bytes, one final byte (colours and the like). */
const CSI = /(?:\u001B\[|\u009B)[0-?]*[ -/]*[@-~]/gu;
/** Any other escape: ESC and one byte from @ to _. */
const ESCAPE = /\u001B[@-_]/gu;
/** C0 and C1 controls that are not whitespace (tab, line feed and carriage return stay, to become spaces). */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/gu;
/** Zero-width and direction marks that could make a title read otherwise than it is. */
const INVISIBLE = /[\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/gu;

/** The text as one clean line (the order matters: a whole escape goes before its bytes would count as controls). */
export function cleanTitleText(text: string): string {
  return text.replace(OSC, '').replace(CSI, '').replace(ESCAPE, '').replace(CONTROL, '').replace(INVISIBLE, '').replace(/\s+/gu, ' ').trim();
}
