/**
 * Redaction of obvious secrets in exported text: API keys and bearer tokens
 * that agents paste into tool calls and outputs. A heuristic, on by default
 * for exports only — the app itself always shows the log as it is.
 */
/** Names of fields and variables whose value is a secret (a name ending in one of these). */
export const SECRET_NAME = '(?:api[_-]?key|secret|token|password|passwd|authorization)';

/** Each pattern, its replacement, and what it found (for a redaction preview). */
const PATTERNS: [RegExp, string, string][] = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g, '[REDACTED private key]', 'private key'],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{16,}/g, '$1 [REDACTED]', 'bearer token'],
  [/\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}/g, '[REDACTED api key]', 'api key'],
  [/\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}/g, '[REDACTED github token]', 'github token'],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}/g, '[REDACTED slack token]', 'slack token'],
  [/\bAKIA[0-9A-Z]{16}\b/g, '[REDACTED aws key]', 'aws key'],
  [/\bAIza[0-9A-Za-z_-]{35}\b/g, '[REDACTED google key]', 'google key'],
  [new RegExp(`(${SECRET_NAME}["']?\\s*[:=]\\s*["']?)([^\\s"',}]{8,})`, 'gi'), '$1[REDACTED]', 'named secret'],
];

export interface Redacted {
  text: string;
  /** How many secrets were replaced. */
  count: number;
}

/** `onHit` hears what each replaced secret was ("api key", "bearer token"…). */
export function redactSecrets(text: string, onHit?: (what: string) => void): Redacted {
  let count = 0;
  let out = text;
  for (const [pattern, replacement, what] of PATTERNS) {
    out = out.replace(pattern, (...args) => {
      count++;
      onHit?.(what);
      // Re-apply the replacement template with the match's groups.
      return replacement.replace(/\$(\d)/g, (_, n) => String(args[Number(n)] ?? ''));
    });
  }
  return { text: out, count };
}

/** Where secrets are in a text, without replacing them: [start, end) of each, and what it is (the kept `$1` prefix excluded). */
export function secretSpans(text: string): { start: number; end: number; what: string }[] {
  const spans: { start: number; end: number; what: string }[] = [];
  for (const [pattern, replacement, what] of PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      const kept = replacement.startsWith('$1') ? m[1].length : 0;
      spans.push({ start: m.index + kept, end: m.index + m[0].length, what });
    }
  }
  return spans;
}

