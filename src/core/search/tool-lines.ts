import { caselessPattern, hasEscapes, readsAsWritten, TWO_CHAR_LOWER } from './line-prefilter.ts';
import type { CallNames } from './query.ts';

/** A call id a result names, as its line writes it: the value of a "toolCallId" or "callId" key (anywhere: a superset). */
const CALL_ID = /"(?:toolCallId|callId)"\s*:\s*"((?:[^"\\]|\\.)*)"/g;

/**
 * What a line must hold for an event of it to pass a `tool:` filter, so a
 * search parses no other line (without it, `tool:read_file` parsed every event
 * of a 1M-event log). An event names a tool by a call's, a streamed call's or
 * a tool-call block's name, each a string value in its line as written
 * (lower-cased with the line), or by the id of a call noted with that name
 * (`names`, as of the event): a result holds it under "toolCallId" or
 * "callId". A line with a `\u` or `\/` escape may hold anything. Null when
 * the name is one JSON writes escaped or holds a sigma (lower case by
 * context): then every line may.
 */
export function toolLineCheck(tool: string): ToolLineCheck | null {
  if (!readsAsWritten(tool)) return null;
  // A block is searched without lower-casing it, as the word filter's blocks are.
  const caseless = caselessPattern([tool]);
  const namesCall = (text: string, names: CallNames): boolean => {
    for (const m of text.matchAll(CALL_ID)) {
      const id = m[1].includes('\\') ? unescaped(m[1]) : m[1];
      if (id === null || names.get(id)?.toLowerCase() === tool) return true;
    }
    return false;
  };
  return {
    line: (text, names) => hasEscapes(text) || text.toLowerCase().includes(tool) || namesCall(text, names),
    block: (text, names) => hasEscapes(text) || text.includes(TWO_CHAR_LOWER) || caseless.test(text) || namesCall(text, names),
  };
}

/** A `tool:` filter's check of a line's text, and of a block of lines' (a superset), with the call names as of the (first) event. */
export interface ToolLineCheck {
  line(text: string, names: CallNames): boolean;
  block(text: string, names: CallNames): boolean;
}

/** A JSON string's content as written, read (null when it does not read). */
function unescaped(written: string): string | null {
  try {
    return JSON.parse(`"${written}"`) as string;
  } catch {
    return null;
  }
}
