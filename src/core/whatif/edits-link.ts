import { Base64Error, fromBase64, toBase64 } from '../share/base64.ts';
import { parseEdits, type Edit } from './edits.ts';

/**
 * The most a link's edit list may hold, decoded. Edits are the user's own
 * text, not the log's, but a link is untrusted input: a longer one is
 * refused with a reason rather than parsed.
 */
export const MAX_LINK_EDITS_BYTES = 64 * 1024;

/** The edit list as a link parameter: its JSON in base64url (docs/whatif.md). */
export function editsToParam(edits: readonly Edit[]): string {
  return toBase64(new TextEncoder().encode(JSON.stringify(edits)), true);
}

/** A link parameter's edit list, or why it is not one. */
export function editsFromParam(param: string): { ok: true; edits: Edit[] } | { ok: false; error: string } {
  if (param.length > Math.ceil((MAX_LINK_EDITS_BYTES * 4) / 3) + 4) return { ok: false, error: `the link's edit list is over ${MAX_LINK_EDITS_BYTES / 1024} KiB` };
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(fromBase64(param, true)));
  } catch (err) {
    return { ok: false, error: `the link's edit list is not readable: ${err instanceof Base64Error ? 'not base64url' : err instanceof Error ? err.message : String(err)}` };
  }
  return parseEdits(value);
}
