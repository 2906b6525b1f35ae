import { z } from 'zod';
import { Base64Error, fromBase64 } from '../share/base64.ts';
import type { Edit } from './edits.ts';
import { MAX_LINK_EDITS_BYTES } from './edits-link.ts';

// The edit list's schema: read by the worker and the CLI only (the page bundle carries no zod).
const seq = z.number().int().nonnegative();
const editSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('drop'), seq }).strict(),
  z.object({ kind: z.literal('text'), seq, text: z.string() }).strict(),
  z.object({ kind: z.literal('insert-user'), before: seq, text: z.string() }).strict(),
  z.object({ kind: z.literal('undo-replace'), seq }).strict(),
]);
const editsSchema = z.array(editSchema);

/** An edit list from JSON (a file, a link): the list, or what is wrong with it. */
export function parseEdits(value: unknown): { ok: true; edits: Edit[] } | { ok: false; error: string } {
  const r = editsSchema.safeParse(value);
  if (r.success) return { ok: true, edits: r.data as Edit[] };
  const issue = r.error.issues[0];
  return { ok: false, error: `edit ${issue.path.join('.') || '(list)'}: ${issue.message}` };
}

/** A link parameter's edit list (edits-link.ts), or why it is not one. */
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
