import { toBase64 } from './base64.ts';
import type { SharedLog } from './fragment.ts';

/**
 * The whole app as one HTML file that opens from `file://` with no network:
 * the stylesheet and the app's script inline (each allowed by its SHA-256 in
 * the page's CSP, no 'unsafe-inline', no eval), the load worker's code as an
 * inert text block the app starts from a Blob URL (`worker-src blob:`), and
 * optionally a log (gzip, base64) in a JSON block. `npm run build` writes it
 * without a log (dist/dsh-devtools.html); an export puts a log in.
 */
export interface AppParts {
  css: string;
  /** The app's module script: one chunk, no imports. */
  script: string;
  /** The load worker's module code: one chunk, no imports. */
  worker: string;
}

/** The log a single file carries, as stored in its JSON block. */
export interface EmbeddedLog {
  v: 1;
  name: string;
  encoding: 'gzip';
  /** Bytes of the gzip (a check on the base64 that follows). */
  bytes: number;
  redacted: boolean;
  redactions: number;
  /** The view state at export (a URL fragment: cursor, tab, filters…), applied when the file opens without one. */
  view: string;
  /** The gzip, base64. */
  data: string;
}

/** Element ids the app looks for (src/ui/share/single-file.ts reads the same). */
export const SINGLE_FILE_IDS = { style: 'dsh-app-style', script: 'dsh-app-script', worker: 'dsh-worker-source', log: 'dsh-embedded-log' } as const;

export async function singleFileHtml(parts: AppParts, log: (SharedLog & { view: string }) | null): Promise<string> {
  if (/<\/style/i.test(parts.css)) throw new Error('the stylesheet holds "</style" and cannot be inlined');
  const script = inlineScript(parts.script);
  const worker = inlineScript(parts.worker);
  const csp = singleFileCsp(await sha256(script), await sha256(parts.css));
  const embedded: EmbeddedLog | null = log && {
    v: 1, name: log.name, encoding: 'gzip', bytes: log.gzip.length, redacted: log.redacted, redactions: log.redactions, view: log.view, data: toBase64(log.gzip),
  };
  const title = log ? `${log.name} — DSH Devtools` : 'DSH Devtools';
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="UTF-8" />',
    `<meta http-equiv="Content-Security-Policy" content="${csp}" />`,
    '<meta name="viewport" content="width=device-width, initial-scale=1.0" />',
    '<meta name="referrer" content="no-referrer" />',
    '<meta name="color-scheme" content="light dark" />',
    '<link rel="icon" href="data:," />',
    `<title>${escapeHtml(title)}</title>`,
    `<style id="${SINGLE_FILE_IDS.style}">${parts.css}</style>`,
    '</head>',
    '<body>',
    '<div id="root"></div>',
    // JSON is inert under any CSP; `<` is escaped so no text in it can end the block.
    `<script type="application/json" id="${SINGLE_FILE_IDS.log}">${JSON.stringify(embedded).replace(/</g, '\\u003c')}</script>`,
    `<script type="text/plain" id="${SINGLE_FILE_IDS.worker}">${worker}</script>`,
    `<script type="module" id="${SINGLE_FILE_IDS.script}">${script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * The page's policy: only its own inline script and style (by hash), the
 * worker from a Blob URL, images from data/blob URLs; no connection at all.
 */
export function singleFileCsp(scriptHash: string, styleHash: string): string {
  return [
    "default-src 'none'",
    `script-src 'sha256-${scriptHash}'`,
    'worker-src blob:',
    `style-src 'sha256-${styleHash}'`,
    'img-src data: blob:',
    "connect-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** The parts of a single file written by `singleFileHtml` (to put another log into it). */
export function appPartsFromHtml(html: string): AppParts {
  const css = blockText(html, 'style', SINGLE_FILE_IDS.style);
  const script = blockText(html, 'script', SINGLE_FILE_IDS.script);
  const worker = blockText(html, 'script', SINGLE_FILE_IDS.worker);
  if (css === null || script === null || worker === null) throw new Error('this is not a DSH Devtools single-file app (its style, script or worker block is missing)');
  return { css, script, worker };
}

/** The log block of a single file's HTML (null: none). */
export function embeddedLogOfHtml(html: string): EmbeddedLog | null {
  const text = blockText(html, 'script', SINGLE_FILE_IDS.log);
  return text === null ? null : parseEmbeddedLog(text);
}

/** A log block's JSON, checked (null for the empty block of the app without a log). */
export function parseEmbeddedLog(text: string): EmbeddedLog | null {
  const value = JSON.parse(text) as EmbeddedLog | null;
  if (value === null) return null;
  if (typeof value !== 'object' || value.v !== 1 || value.encoding !== 'gzip' || typeof value.data !== 'string' || typeof value.name !== 'string') {
    throw new Error('the log block of this file is not one this app wrote (version 1, gzip, base64)');
  }
  return { ...value, view: typeof value.view === 'string' ? value.view : '', redacted: value.redacted === true, redactions: Number(value.redactions) || 0 };
}

function blockText(html: string, tag: 'script' | 'style', id: string): string | null {
  const m = new RegExp(`<${tag}\\b[^>]*\\bid="${id}"[^>]*>([\\s\\S]*?)</${tag}>`).exec(html);
  return m ? m[1] : null;
}

/**
 * JavaScript made safe to sit in a script element: "</script" and "<!--"
 * would end or confuse the element, and only occur inside strings, regexes
 * or comments, where `\x3C` means the same `<`. Applying it twice changes nothing.
 */
export function inlineScript(code: string): string {
  return code.replace(/<(\/script|!--)/gi, '\\x3C$1');
}

async function sha256(text: string): Promise<string> {
  return toBase64(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
