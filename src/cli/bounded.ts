// Answers an agent reads are bounded (`--max-bytes`): a context window is
// small, and a long session's lists are not. A document too big is cut
// where it is biggest, and says what it left out.

/** The default bound of the agent commands' output, in bytes (0 means none). */
export const DEFAULT_MAX_BYTES = 32_768;

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** A note of what a cut left out, kept in the document as `truncated`. */
export interface Cut {
  path: string;
  kept: number;
  of: number;
}

/** Every array and long string of a document, with where it is (to cut the biggest first). */
function parts(value: unknown, path: string, out: { path: string; holder: unknown; key: string | number; size: number }[], holder: unknown = null, key: string | number = ''): void {
  if (Array.isArray(value)) {
    if (holder !== null && value.length) out.push({ path, holder, key, size: bytes(JSON.stringify(value)) });
    value.forEach((v, i) => parts(v, `${path}[${i}]`, out, value, i));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) parts(v, path ? `${path}.${k}` : k, out, value, k);
  } else if (typeof value === 'string' && value.length > 200 && holder !== null) out.push({ path, holder, key, size: bytes(value) });
}

/**
 * `doc` as JSON of at most `maxBytes` (0: any size): while it is too big, its
 * biggest array loses its last half, or its biggest string is cut, and each cut
 * is listed under `truncated`. A document that cannot fit is replaced by a note saying so.
 */
export function boundedJson(doc: Record<string, unknown>, maxBytes: number, indent = 0): string {
  const print = (d: unknown) => JSON.stringify(d, null, indent);
  let text = print(doc);
  if (!maxBytes || bytes(text) <= maxBytes) return text;
  const copy = JSON.parse(text) as Record<string, unknown>;
  const cuts = new Map<string, Cut>();
  for (let round = 0; round < 200; round++) {
    const found: Parameters<typeof parts>[2] = [];
    parts(copy, '', found);
    const biggest = found.sort((a, b) => b.size - a.size)[0];
    if (!biggest) break;
    const holder = biggest.holder as Record<string | number, unknown>;
    const value = holder[biggest.key];
    if (Array.isArray(value)) {
      const was = cuts.get(biggest.path)?.of ?? value.length;
      value.length = Math.floor(value.length / 2);
      cuts.set(biggest.path, { path: biggest.path, kept: value.length, of: was });
    } else if (typeof value === 'string') {
      const was = cuts.get(biggest.path)?.of ?? value.length;
      const kept = Math.floor(value.length / 2);
      holder[biggest.key] = `${value.slice(0, kept)}…`;
      cuts.set(biggest.path, { path: biggest.path, kept, of: was });
    }
    copy.truncated = [...cuts.values()];
    text = print(copy);
    if (bytes(text) <= maxBytes) return text;
  }
  return print({ truncated: true, error: `does not fit --max-bytes ${maxBytes}` });
}

/**
 * JSON lines, as many as fit in `maxBytes` (0: all) with room for a last line
 * saying how many were left out and how to ask for the rest.
 */
export function boundedLines(lines: readonly string[], maxBytes: number, more: (shown: number) => string): string {
  if (!maxBytes) return lines.map((l) => `${l}\n`).join('');
  let used = 0;
  let shown = 0;
  const out: string[] = [];
  for (const line of lines) {
    const cost = bytes(line) + 1;
    const tail = shown + 1 < lines.length ? bytes(more(shown + 1)) + 1 : 0;
    if (used + cost + tail > maxBytes) break;
    out.push(line);
    used += cost;
    shown++;
  }
  if (shown < lines.length) out.push(more(shown));
  return out.map((l) => `${l}\n`).join('');
}
