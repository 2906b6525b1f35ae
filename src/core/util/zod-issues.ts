import type { z } from 'zod';

/** Issues named in a message at most; the rest are counted. */
const SHOWN = 3;

/**
 * A schema's complaint in one readable line: each issue as `path: message`
 * (`value` for the whole value), the first few only. Zod's own message is
 * its issues as JSON, which a panel would show as a block of brackets.
 */
export function issuesText(error: z.ZodError): string {
  const issues = error.issues;
  const shown = issues.slice(0, SHOWN).map((issue) => `${issue.path.length ? issue.path.map(String).join('.') : 'value'}: ${issue.message}`);
  return shown.join('; ') + (issues.length > SHOWN ? ` (and ${issues.length - SHOWN} more)` : '');
}
