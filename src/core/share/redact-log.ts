import { redactSecrets, SECRET_NAME } from '../export/redact.ts';
import { StreamMasker } from './redact-streams.ts';

/**
 * The export redaction (core/export/redact.ts) applied to a JSONL log, so
 * that a shared log still reads as the same log: each JSON string is
 * decoded, redacted and encoded again (an escape in the text can never be
 * cut in half), and the string value of a field named like a secret
 * (`"api_key": "…"`) is replaced whole. Numbers, keys and every line
 * without a secret keep their exact bytes. A secret streamed in pieces is
 * masked in its pieces (redact-streams.ts).
 */

/** A cheap test first: most lines of a log hold none of what the patterns look for. */
const MAYBE_SECRET = new RegExp(`PRIVATE KEY|Bearer|Basic|sk-|gh[pousr]_|github_pat_|xox[abposr]-|AKIA|AIza|${SECRET_NAME}`, 'i');
/** JSON string tokens: outside a string, valid JSON has no quote, so a left-to-right scan finds them all. */
const JSON_STRING = /"(?:[^"\\]|\\.)*"/g;
const SECRET_FIELD = new RegExp(`${SECRET_NAME}$`, 'i');
/** The named-secret pattern's shortest value: shorter ones (ids, flags) are not secrets. */
const MIN_SECRET_VALUE = 8;
const REDACTED_VALUE = '[REDACTED]';
/** Hits a preview lists (the count is always complete). */
const MAX_HITS = 50;

export interface RedactionHit {
  /** 1-based line of the log. */
  line: number;
  /** What was replaced: "api key", "bearer token", "private key", "secret field api_key"… */
  what: string;
}

export class LogRedactor {
  count = 0;
  readonly hits: RedactionHit[] = [];
  private readonly streams = new StreamMasker((what, line) => this.hit(what, line));

  /** The lines ready to write after this one, redacted (a stream's rows wait for its end: they are searched together). */
  push(line: string, lineNo: number): string[] {
    return this.streams.push(line, lineNo).map((r) => this.strings(r.text, r.lineNo));
  }

  /** The lines still held, at the end of the log. */
  end(): string[] {
    return this.streams.flush().map((r) => this.strings(r.text, r.lineNo));
  }

  private hit(what: string, lineNo: number): void {
    this.count++;
    if (this.hits.length < MAX_HITS) this.hits.push({ line: lineNo, what });
  }

  /** A line with the secrets of its strings replaced (the same string when it has none). */
  private strings(text: string, lineNo: number): string {
    if (!MAYBE_SECRET.test(text)) return text;
    const hit = (what: string) => this.hit(what, lineNo);
    const first = text.trimStart()[0];
    // Not a JSON object (a torn tail, a stray line): redacted as plain text.
    if (first !== '{' && first !== '[') return redactSecrets(text, hit).text;
    let field: string | null = null;
    let fieldEnd = 0;
    return text.replace(JSON_STRING, (token, offset: number) => {
      const end = offset + token.length;
      if (/^\s*:/.test(text.slice(end, end + 8))) {
        field = token.slice(1, -1);
        fieldEnd = end;
        return token;
      }
      const value = decode(token);
      if (value === null) return token;
      const isValueOf = field !== null && /^\s*:\s*$/.test(text.slice(fieldEnd, offset));
      if (isValueOf && SECRET_FIELD.test(field!) && value.length >= MIN_SECRET_VALUE && !value.startsWith('[REDACTED')) {
        hit(`secret field ${field}`);
        return JSON.stringify(REDACTED_VALUE);
      }
      field = null;
      const redacted = redactSecrets(value, hit);
      return redacted.count ? JSON.stringify(redacted.text) : token;
    });
  }
}

function decode(token: string): string | null {
  if (!token.includes('\\')) return token.slice(1, -1);
  try { return JSON.parse(token) as string; } catch { return null; }
}

/** A whole log text redacted (tests, small logs); big logs go line by line through `LogRedactor`. */
export function redactLogText(text: string): { text: string; count: number; hits: RedactionHit[] } {
  const r = new LogRedactor();
  const out = text.split('\n').flatMap((line, i) => r.push(line, i + 1));
  out.push(...r.end());
  return { text: out.join('\n'), count: r.count, hits: r.hits };
}
