import { Base64Error, fromBase64, toBase64 } from './base64.ts';

/**
 * A small log inside a link's fragment (the part after `#`, which browsers
 * never send to a server), beside the view state the link already carries:
 * `…&zn=<name>&zr=<redactions|raw>&zb=<gzip bytes>&z=<gzip, base64url>`.
 * The log's bytes come last, so a link cut short loses them and `zb` tells.
 */
export const DEFAULT_LINK_LIMIT = 32 * 1024;
/** View parameters that name another log or a compare partner: meaningless with the log inside. */
const NOT_SHARED = ['log', 'h', 'cmp', 'cr', 'cb'];
const LOG_PARAMS = ['zn', 'zr', 'zb', 'z'];
const MAX_NAME = 200;
const DEFAULT_NAME = 'shared-log.jsonl';

export interface SharedLog {
  name: string;
  /** The log, gzipped (core/share/pack-log.ts). */
  gzip: Uint8Array;
  redacted: boolean;
  redactions: number;
}

export type LogFragment =
  | { ok: true; fragment: string }
  /** Over the limit: the link can carry the view only. */
  | { ok: false; length: number; limit: number };

/** The view state of a fragment without what only fits its own log (another log's name and fingerprint, compare). */
export function shareableView(hash: string): string {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  for (const k of [...NOT_SHARED, ...LOG_PARAMS]) p.delete(k);
  return p.toString();
}

/** A fragment holding the view and the log, if it fits `limit` characters. */
export function logFragment(view: string, log: SharedLog, limit = DEFAULT_LINK_LIMIT): LogFragment {
  const p = new URLSearchParams(shareableView(view));
  p.set('zn', log.name.slice(0, MAX_NAME));
  p.set('zr', log.redacted ? String(log.redactions) : 'raw');
  p.set('zb', String(log.gzip.length));
  const head = p.toString();
  const length = head.length + 3 + Math.ceil((log.gzip.length * 4) / 3);
  if (length > limit) return { ok: false, length, limit };
  return { ok: true, fragment: `${head}&z=${toBase64(log.gzip, true)}` };
}

export type FragmentRead =
  | { ok: true; log: SharedLog; view: string }
  | { ok: false; error: string; view: string };

/** The log a fragment carries (null: none), or why it cannot be read. */
export function readLogFragment(hash: string): FragmentRead | null {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  if (!p.has('z')) return null;
  const view = shareableView(hash);
  const fail = (error: string): FragmentRead => ({ ok: false, error, view });
  const data = p.get('z')!;
  const size = p.get('zb');
  const expected = size !== null && /^\d{1,12}$/.test(size) ? Number(size) : null;
  if (expected === null) return fail('The log in this link is malformed: its size (zb) is missing or not a number.');
  let gzip: Uint8Array;
  try {
    gzip = fromBase64(data, true);
  } catch (err) {
    // A cut in the middle of the data can leave a stray length; say "cut short" when it is shorter than promised.
    if (err instanceof Base64Error && Math.floor((data.length * 3) / 4) < expected && /^[A-Za-z0-9_-]*$/.test(data)) return fail(cutShort(Math.floor((data.length * 3) / 4), expected));
    return fail(`The log in this link is malformed: ${err instanceof Error ? err.message : String(err)}.`);
  }
  if (gzip.length < expected) return fail(cutShort(gzip.length, expected));
  if (gzip.length > expected) return fail(`The log in this link is malformed: it holds ${gzip.length} bytes where it says ${expected}.`);
  const redactions = p.get('zr');
  const name = (p.get('zn') || DEFAULT_NAME).slice(0, MAX_NAME);
  const counted = redactions !== null && /^\d{1,9}$/.test(redactions);
  return { ok: true, view, log: { name, gzip, redacted: counted, redactions: counted ? Number(redactions) : 0 } };
}

function cutShort(have: number, expected: number): string {
  return `The log in this link is cut short: it holds ${have} of its ${expected} bytes (the link was truncated on its way). Ask for the whole link, or for the log as a self-contained HTML file.`;
}
