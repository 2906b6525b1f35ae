import { toBase64 } from '../share/base64.ts';
import type { Edit } from './edits.ts';

/**
 * The most a link's edit list may hold, decoded. Edits are the user's own
 * text, not the log's, but a link is untrusted input: a longer one is
 * refused with a reason rather than parsed (edits-schema.ts reads it).
 */
export const MAX_LINK_EDITS_BYTES = 64 * 1024;

/** The edit list as a link parameter: its JSON in base64url (docs/whatif.md). */
export function editsToParam(edits: readonly Edit[]): string {
  return toBase64(new TextEncoder().encode(JSON.stringify(edits)), true);
}
