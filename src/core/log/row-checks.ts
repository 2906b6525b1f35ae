// Pure checks of one row, kept apart from the reader's state: how deep its text
// nests (a limit of this viewer), and how an unknown required type is worded.
// Section ids are those of docs/dsh-log-rules.md.
import type { DiagnosticCode } from '../diagnostics/diagnostic.ts';
import { isPluginRecordType, laterDialectKnowing } from './event-types.ts';
import type { Dialect, LogEvent } from './types.ts';
import { FORK_TYPES, KNOWN_DSH_TEXT, NEWEST_KNOWN_DSH } from './versions.ts';

/** Deepest nesting of arrays/objects a row may have (the row object is level 1). */
export const MAX_ROW_DEPTH = 1000;

/**
 * Lines up to this long are parsed before their nesting is checked: one of
 * 1 MiB characters nests at most 512K levels, which JSON.parse builds in
 * about 35 MB and a tenth of a second (measured: 1M levels, 69 MB, 0.23 s).
 */
export const PARSE_BEFORE_DEPTH_CHARS = 1 << 20;

export function tooDeep(line: number, text: string): [DiagnosticCode, string] {
  return ['row.too-deep', `line ${line} (${text.length.toLocaleString('en')} characters) nests deeper than ${MAX_ROW_DEPTH} levels; kept aside unread (a limit of this viewer, not a DSH rule: DSH may still restore the line)`];
}

/** Whether JSON text nests arrays/objects more than `limit` levels (brackets inside strings do not count). */
export function textNestsDeeperThan(text: string, limit: number): boolean {
  // Nesting that deep needs at least 2 × limit brackets: a shorter line is not looked at.
  if (text.length <= 2 * limit) return false;
  // Nesting that deep needs more than `limit` opening brackets: count them natively first (most long lines are prose).
  if (countUpTo(text, '{', limit + 1) + countUpTo(text, '[', limit + 1) <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) { if (++depth > limit) return true; }
    else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** How many times `c` occurs in `text`, counting no further than `max`. */
function countUpTo(text: string, c: string, max: number): number {
  let n = 0;
  for (let i = text.indexOf(c); i >= 0 && n < max; i = text.indexOf(c, i + 1)) n++;
  return n;
}

/**
 * The field through which an unknown event could change the surface
 * (dsh-log-rules V7): surface metadata, a message in its payload, or the
 * targets a message projection rewrites (L6.4, as `image/offload` names
 * them). Null: it is log-only, so the surface, messages and requests stay exact.
 */
export function surfaceFieldOf(event: LogEvent): string | null {
  if (event.surfaceOp !== undefined) return 'surfaceOp';
  if (event.sourceEventSeqs !== undefined) return 'sourceEventSeqs';
  const d = event.data;
  if (d === null || typeof d !== 'object' || Array.isArray(d)) return null;
  for (const field of ['message', 'messages', 'targets']) if (Object.hasOwn(d, field)) return `data.${field}`;
  return null;
}

/**
 * An unknown required type (L2.3, E4) is worded as newer than this app, not
 * as a broken log: DSH's own reader refuses it, but a newer DSH, or a fork
 * with its own vocabulary, may know it. Says what the app knows, any better
 * guess (a fork's type, a type of a later format than the header states, a
 * plugin record without its marker), and what it can cost (V7).
 */
export function unknownTypeMessage(event: LogEvent, dialect: Dialect, version: number): string {
  const hints: string[] = [];
  const fork = FORK_TYPES[event.type];
  if (fork) hints.push(`${fork}`);
  const later = laterDialectKnowing(event.type, dialect);
  if (later) hints.push(`format ${later === 'v3' ? 3 : 4} logs have it, but this log says format ${version}`);
  if (isPluginRecordType(event.type)) hints.push('DSH writes plugin records with ignorable: true');
  const field = surfaceFieldOf(event);
  const cost = field === null
    ? 'it carries no message or surface fields, so the surface, messages and requests are exact; projections may miss what a newer unit folds from it'
    : `it carries ${field}, so the surface, messages, requests and projections after it may miss what it does`;
  return `Event type ${event.type} at seq ${event.seq} is not in the vocabulary this app knows (${KNOWN_DSH_TEXT}) and is not marked ignorable: `
    + `likely written by a newer DSH or a fork${hints.length ? ` (${hints.join('; ')})` : ''}. DSH up to ${NEWEST_KNOWN_DSH} refuses such a log; `
    + `the events after it are still shown, and ${cost}`;
}
